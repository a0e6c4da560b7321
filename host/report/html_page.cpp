#include "report/html_page.hpp"

#include <cmath>
#include <cstdio>

#include "report/html_escape.hpp"
#include "report/inline_svg.hpp"

namespace cae {
namespace {

constexpr const char* kStyle = R"(
  body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1100px; color: #222;
         padding: 0 1em; line-height: 1.4; }
  h1 { margin-bottom: 0.2em; }
  h2 { border-bottom: 1px solid #ddd; padding-bottom: 0.2em; margin-top: 1.8em; }
  .meta { color: #555; margin-top: 0; }
  .headline { font-size: 1.3em; }
  table { border-collapse: collapse; margin: 0.5em 0; }
  th, td { padding: 0.25em 0.8em; border-bottom: 1px solid #eee; text-align: left; }
  th { background: #f5f5f5; }
  td.number, th.number { text-align: right; font-variant-numeric: tabular-nums; }
  tr.total td { border-top: 2px solid #ccc; font-weight: bold; }
  tr.group td { background: #fafafa; font-weight: bold; border-top: 1px solid #ddd; }
  figure { margin: 1em 0; }
  figcaption { color: #555; font-size: 0.9em; }
  svg.figure { max-width: 100%; height: auto; display: block; border: 1px solid #eee; }
  img { max-width: 100%; border: 1px solid #eee; }
  code { background: #f5f5f5; padding: 0 0.3em; }
  .skipped { color: #8a5a00; }
)";

// A relative file name as a URL path: bytes outside the unreserved set are
// percent-encoded, so spaces or '#' in a name still link to the file.
std::string url_path(const std::string& path) {
  static const char* kHex = "0123456789ABCDEF";
  std::string url;
  for (unsigned char c : path) {
    bool safe = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                c == '-' || c == '_' || c == '.' || c == '~' || c == '/';
    if (safe) {
      url += static_cast<char>(c);
    } else {
      url += '%';
      url += kHex[c >> 4];
      url += kHex[c & 15];
    }
  }
  return html_escape(url);
}

}  // namespace

std::string html_page(const std::string& title, const std::string& body_html) {
  std::string html = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  html += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  html += "<title>" + html_escape(title) + "</title>\n<style>" + kStyle + "</style>\n";
  html += "</head>\n<body>\n<h1>" + html_escape(title) + "</h1>\n";
  return html + body_html + "</body>\n</html>\n";
}

std::string percent_text(double fraction) {
  if (!std::isfinite(fraction)) return "n/a";
  char text[32];
  std::snprintf(text, sizeof text, "%.2f %%", 100.0 * fraction);
  return text;
}

std::string html_link(const std::string& path, const std::string& text) {
  return "<a href=\"" + url_path(path) + "\">" + html_escape(text) + "</a>";
}

std::string html_image(const std::string& path, const std::string& alt) {
  return "<p><img src=\"" + url_path(path) + "\" alt=\"" + html_escape(alt) + "\"></p>\n";
}

std::string key_value_table(const std::vector<std::pair<std::string, std::string>>& rows) {
  std::string html = "<table class=\"key-value\">\n";
  for (const auto& [key, value] : rows) {
    html += "<tr><th>" + html_escape(key) + "</th><td><code>" + html_escape(value) +
            "</code></td></tr>\n";
  }
  return html + "</table>\n";
}

std::string svg_figure_html(const std::string& svg_document, const std::string& id_prefix,
                            const std::string& label, const std::string& png_path) {
  std::string html = "<figure>\n" + inline_svg(svg_document, id_prefix, label) + "\n";
  if (!png_path.empty()) {
    html += "<figcaption>" + html_link(png_path, "PNG") + "</figcaption>\n";
  }
  return html + "</figure>\n";
}

std::string figure_html(const Figure& figure, const std::string& id_prefix,
                        const std::string& label, const std::string& png_path) {
  return svg_figure_html(figure_svg(figure), id_prefix, label, png_path);
}

}  // namespace cae
