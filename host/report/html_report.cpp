#include "report/html_report.hpp"

#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "io/atomic_file.hpp"
#include "report/class_names.hpp"
#include "report/html_escape.hpp"

namespace cae {
namespace {

constexpr const char* kStyle = R"(
  body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 980px; color: #222;
         padding: 0 1em; line-height: 1.4; }
  h1 { margin-bottom: 0.2em; }
  h2 { border-bottom: 1px solid #ddd; padding-bottom: 0.2em; margin-top: 1.8em; }
  .meta { color: #555; margin-top: 0; }
  .headline { font-size: 1.3em; }
  table { border-collapse: collapse; margin: 0.5em 0; }
  th, td { padding: 0.25em 0.8em; border-bottom: 1px solid #eee; text-align: left; }
  th { background: #f5f5f5; }
  td.number { text-align: right; font-variant-numeric: tabular-nums; }
  tr.total td { border-top: 2px solid #ccc; font-weight: bold; }
  .bar { background: #e8eef6; width: 200px; height: 0.9em; }
  .bar div { background: #3a78b5; height: 100%; }
  img { max-width: 100%; border: 1px solid #eee; }
  code { background: #f5f5f5; padding: 0 0.3em; }
)";

std::string percent_text(double fraction) {
  if (!std::isfinite(fraction)) return "n/a";
  char text[32];
  std::snprintf(text, sizeof text, "%.2f %%", 100.0 * fraction);
  return text;
}

std::string seconds_text(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3f", seconds);
  return text;
}

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

std::string link(const std::string& path, const std::string& text) {
  return "<a href=\"" + url_path(path) + "\">" + html_escape(text) + "</a>";
}

std::string image(const std::string& path, const std::string& alt) {
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

std::string accuracy_section(const ReportData& data) {
  bool has_per_class = !data.per_class_accuracy.empty();
  if (!std::isfinite(data.accuracy) && !has_per_class && data.summary.empty()) return "";
  std::string html = "<section>\n<h2>Accuracy</h2>\n";
  html += "<p class=\"headline\">Overall accuracy: <strong>" + percent_text(data.accuracy) +
          "</strong></p>\n";
  if (!data.summary.empty()) html += key_value_table(data.summary);
  if (has_per_class) {
    int n = static_cast<int>(data.per_class_accuracy.size());
    std::vector<std::string> names = class_names_for(data.class_names, n);
    bool has_support = !data.per_class_support.empty();
    if (has_support && data.per_class_support.size() != data.per_class_accuracy.size()) {
      throw std::invalid_argument("report: " + std::to_string(data.per_class_support.size()) +
                                  " per-class sample counts for " + std::to_string(n) + " classes");
    }
    html += "<table class=\"per-class\">\n<tr><th>class</th><th>accuracy</th><th></th>";
    if (has_support) html += "<th>samples</th>";
    html += "</tr>\n";
    for (int c = 0; c < n; ++c) {
      double fraction = data.per_class_accuracy[c];
      double width = std::isfinite(fraction) ? std::fmin(std::fmax(fraction, 0.0), 1.0) : 0.0;
      char bar_width[32];
      std::snprintf(bar_width, sizeof bar_width, "%.1f%%", 100.0 * width);
      html += "<tr><td>" + html_escape(names[c]) + "</td><td class=\"number\">" +
              percent_text(fraction) +
              "</td><td><div class=\"bar\"><div style=\"width: " + bar_width +
              "\"></div></div></td>";
      if (has_support) {
        html += "<td class=\"number\">" + std::to_string(data.per_class_support[c]) + "</td>";
      }
      html += "</tr>\n";
    }
    html += "</table>\n";
  }
  return html + "</section>\n";
}

std::string confusion_section(const ReportData& data) {
  if (data.confusion_png.empty() && data.confusion_csv.empty() && data.predictions_csv.empty()) {
    return "";
  }
  std::string html = "<section>\n<h2>Confusion matrix</h2>\n";
  html +=
      "<p>Rows are true classes, columns predicted classes; cells show the share of each "
      "true class.</p>\n";
  if (!data.confusion_png.empty()) html += image(data.confusion_png, "confusion matrix");
  std::vector<std::string> links;
  if (!data.confusion_csv.empty()) links.push_back(link(data.confusion_csv, "counts (CSV)"));
  if (!data.predictions_csv.empty()) {
    links.push_back(link(data.predictions_csv, "every prediction (CSV)"));
  }
  if (!links.empty()) {
    html += "<p>";
    for (std::size_t i = 0; i < links.size(); ++i) html += (i > 0 ? " &middot; " : "") + links[i];
    html += "</p>\n";
  }
  return html + "</section>\n";
}

std::string picture_section(const std::string& heading, const std::string& path,
                            const std::string& explanation) {
  if (path.empty()) return "";
  return "<section>\n<h2>" + html_escape(heading) + "</h2>\n<p>" + html_escape(explanation) +
         "</p>\n" + image(path, heading) + "</section>\n";
}

std::string timings_section(const StageTimings& timings) {
  if (timings.empty()) return "";
  double total = 0.0;
  for (const auto& stage : timings) {
    if (std::isfinite(stage.second)) total += stage.second;
  }
  std::string html = "<section>\n<h2>Stage timings</h2>\n<table class=\"timings\">\n";
  html += "<tr><th>stage</th><th>seconds</th><th>share</th></tr>\n";
  for (const auto& [stage, seconds] : timings) {
    std::string share = total > 0.0 && std::isfinite(seconds) ? percent_text(seconds / total) : "-";
    html += "<tr><td>" + html_escape(stage) + "</td><td class=\"number\">" + seconds_text(seconds) +
            "</td><td class=\"number\">" + share + "</td></tr>\n";
  }
  html += "<tr class=\"total\"><td>total</td><td class=\"number\">" + seconds_text(total) +
          "</td><td class=\"number\">" + (total > 0.0 ? "100.00 %" : "-") + "</td></tr>\n";
  return html + "</table>\n</section>\n";
}

std::string run_line(const ReportData& data) {
  if (data.backend.empty() && data.device.empty()) return "";
  std::string html = "<p class=\"meta\">";
  if (!data.backend.empty()) html += "Backend <strong>" + html_escape(data.backend) + "</strong>";
  if (!data.device.empty()) {
    html += std::string(data.backend.empty() ? "Device" : " on") + " <strong>" +
            html_escape(data.device) + "</strong>";
  }
  return html + "</p>\n";
}

}  // namespace

std::string render_html_report(const ReportData& data) {
  std::string html = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  html += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  html += "<title>" + html_escape(data.title) + "</title>\n<style>" + kStyle + "</style>\n";
  html += "</head>\n<body>\n<h1>" + html_escape(data.title) + "</h1>\n";
  html += run_line(data);
  html += accuracy_section(data);
  html += confusion_section(data);
  html += picture_section("Reconstructions", data.reconstruction_png,
                          "One test image per class: original, the autoencoder's reconstruction, "
                          "and their absolute difference (amplified).");
  html += picture_section("Loss per epoch", data.loss_curve_png,
                          "Training loss and test-set MSE after each epoch.");
  html += timings_section(data.stage_timings);
  if (!data.settings.empty()) {
    html += "<section>\n<h2>Settings</h2>\n" + key_value_table(data.settings) + "</section>\n";
  }
  html += "</body>\n</html>\n";
  return html;
}

void write_html_report(const std::filesystem::path& path, const ReportData& data) {
  write_file_atomically(path.string(), render_html_report(data));
}

}  // namespace cae
