// An SVG document made fit to sit inside an HTML page.
#pragma once

#include <string>
#include <string_view>

namespace cae {

// The <svg> element of `svg_document` (cairo's SVG output) for an HTML page:
// the XML declaration is dropped, every id (and every reference to one:
// href="#id", url(#id)) gets `id_prefix` in front, because cairo names its
// glyphs and clips the same way in every file and a page with several
// figures would otherwise show one figure's glyphs in another; the element
// gets role="img", an aria-label (`label`, escaped) and class="figure" so it
// scales with the page. Throws std::invalid_argument if there is no <svg>.
std::string inline_svg(std::string_view svg_document, const std::string& id_prefix,
                       const std::string& label);

}  // namespace cae
