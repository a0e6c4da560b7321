#include "report/inline_svg.hpp"

#include <stdexcept>

#include "report/html_escape.hpp"

namespace cae {
namespace {

// Inserts `prefix` after every occurrence of `marker` in `text`.
std::string prefix_after(const std::string& text, const std::string& marker,
                         const std::string& prefix) {
  std::string out;
  std::size_t from = 0;
  for (std::size_t at = text.find(marker); at != std::string::npos; at = text.find(marker, from)) {
    out.append(text, from, at + marker.size() - from);
    out += prefix;
    from = at + marker.size();
  }
  out.append(text, from, std::string::npos);
  return out;
}

}  // namespace

std::string inline_svg(std::string_view svg_document, const std::string& id_prefix,
                       const std::string& label) {
  std::size_t start = svg_document.find("<svg");
  if (start == std::string_view::npos) {
    throw std::invalid_argument("inline SVG: the document has no <svg> element");
  }
  std::string svg(svg_document.substr(start));
  for (const char* marker : {" id=\"", "href=\"#", "url(#"}) {
    svg = prefix_after(svg, marker, id_prefix);
  }
  std::string attributes =
      " class=\"figure\" role=\"img\" aria-label=\"" + html_escape(label) + "\"";
  svg.insert(4, attributes);
  while (!svg.empty() && (svg.back() == '\n' || svg.back() == ' ')) svg.pop_back();
  return svg;
}

}  // namespace cae
