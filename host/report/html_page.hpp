// Pieces every HTML page of cae shares (run report, run comparison, bench
// page): one style, escaped text, links, and figures as inline SVG.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "report/figure.hpp"

namespace cae {

// A complete page: doctype, <head> with the title and the shared style, and
// `body_html` (already HTML) under an <h1> of the title.
std::string html_page(const std::string& title, const std::string& body_html);

// "87.50 %", or "n/a" for a non-finite fraction.
std::string percent_text(double fraction);

// <a href> to a file relative to the page (URL-encoded, escaped).
std::string html_link(const std::string& path, const std::string& text);

// <img> of a file relative to the page.
std::string html_image(const std::string& path, const std::string& alt);

// A key/value table (keys in <th>, values as <code>), all escaped.
std::string key_value_table(const std::vector<std::pair<std::string, std::string>>& rows);

// The figure drawn as SVG and placed inline (inline_svg with `id_prefix`),
// inside <figure>; `png_path`, when given, is linked below it.
std::string figure_html(const Figure& figure, const std::string& id_prefix,
                        const std::string& label, const std::string& png_path = "");

// An SVG document (as written next to a PNG) placed the same way.
std::string svg_figure_html(const std::string& svg_document, const std::string& id_prefix,
                            const std::string& label, const std::string& png_path = "");

}  // namespace cae
