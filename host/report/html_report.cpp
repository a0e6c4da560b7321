#include "report/html_report.hpp"

#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "io/atomic_file.hpp"
#include "io/output_set.hpp"
#include "report/class_names.hpp"
#include "report/html_escape.hpp"
#include "report/html_page.hpp"
#include "report/report_figures.hpp"
#include "report/report_json.hpp"
#include "report/text_file.hpp"

namespace cae {
namespace {

std::string seconds_text(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3f", seconds);
  return text;
}

// A figure file of the run: inline SVG when there is one, else the PNG.
std::string figure_or_image(const std::string& png, const std::string& label,
                            const std::string& id_prefix, const FigureSvgs& svgs) {
  auto svg = svgs.find(png);
  if (svg == svgs.end()) return html_image(png, label);
  return svg_figure_html(svg->second, id_prefix, label, png);
}

std::string per_class_table(const ReportData& data, const std::vector<std::string>& names) {
  bool has_support = !data.per_class_support.empty();
  std::string html = "<table class=\"per-class\">\n<tr><th>class</th><th>accuracy</th>";
  if (has_support) html += "<th>samples</th>";
  html += "</tr>\n";
  for (std::size_t c = 0; c < names.size(); ++c) {
    html += "<tr><td>" + html_escape(names[c]) + "</td><td class=\"number\">" +
            percent_text(data.per_class_accuracy[c]) + "</td>";
    if (has_support) {
      html += "<td class=\"number\">" + std::to_string(data.per_class_support[c]) + "</td>";
    }
    html += "</tr>\n";
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
    if (!data.per_class_support.empty() &&
        data.per_class_support.size() != data.per_class_accuracy.size()) {
      throw std::invalid_argument("report: " + std::to_string(data.per_class_support.size()) +
                                  " per-class sample counts for " + std::to_string(n) + " classes");
    }
    Figure chart = per_class_accuracy_figure(
        names, {BarSeries{"accuracy", data.per_class_accuracy, series_color(0)}});
    html += figure_html(chart, "per-class-", "accuracy per class", data.per_class_png);
    html += per_class_table(data, names);
  }
  return html + "</section>\n";
}

std::string confusion_section(const ReportData& data, const FigureSvgs& svgs) {
  if (data.confusion_png.empty() && data.confusion_csv.empty() && data.predictions_csv.empty()) {
    return "";
  }
  std::string html = "<section>\n<h2>Confusion matrix</h2>\n";
  html +=
      "<p>Rows are true classes, columns predicted classes; cells show the share of each "
      "true class.</p>\n";
  if (!data.confusion_png.empty()) {
    html += figure_or_image(data.confusion_png, "confusion matrix", "confusion-", svgs);
  }
  std::vector<std::string> links;
  if (!data.confusion_csv.empty()) links.push_back(html_link(data.confusion_csv, "counts (CSV)"));
  if (!data.predictions_csv.empty()) {
    links.push_back(html_link(data.predictions_csv, "every prediction (CSV)"));
  }
  if (!links.empty()) {
    html += "<p>";
    for (std::size_t i = 0; i < links.size(); ++i) html += (i > 0 ? " &middot; " : "") + links[i];
    html += "</p>\n";
  }
  return html + "</section>\n";
}

std::string picture_section(const std::string& heading, const std::string& path,
                            const std::string& explanation, const std::string& id_prefix,
                            const FigureSvgs& svgs) {
  if (path.empty()) return "";
  return "<section>\n<h2>" + html_escape(heading) + "</h2>\n<p>" + html_escape(explanation) +
         "</p>\n" + figure_or_image(path, heading, id_prefix, svgs) + "</section>\n";
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

std::string render_html_report(const ReportData& data, const FigureSvgs& svgs) {
  std::string body = run_line(data);
  body += accuracy_section(data);
  body += confusion_section(data, svgs);
  body += picture_section("Reconstructions", data.reconstruction_png,
                          "One test image per class: original, the autoencoder's reconstruction, "
                          "and their absolute difference (amplified).",
                          "reconstructions-", svgs);
  body += picture_section("Loss per epoch", data.loss_curve_png,
                          "Training loss and test-set MSE after each epoch.", "loss-", svgs);
  body += timings_section(data.stage_timings);
  if (!data.settings.empty()) {
    body += "<section>\n<h2>Settings</h2>\n" + key_value_table(data.settings) + "</section>\n";
  }
  return html_page(data.title, body);
}

void write_html_report(const std::filesystem::path& path, const ReportData& data) {
  write_html_report(path, data, {data.confusion_png, data.reconstruction_png, data.loss_curve_png});
}

void write_html_report(const std::filesystem::path& path, const ReportData& given,
                       const std::set<std::string>& drawn_now) {
  const std::filesystem::path folder = path.parent_path();
  ReportData data = given;
  if (!data.per_class_accuracy.empty()) {
    data.per_class_png = kPerClassAccuracyPng;
    std::vector<std::string> names =
        class_names_for(data.class_names, static_cast<int>(data.per_class_accuracy.size()));
    write_figure(folder / data.per_class_png,
                 per_class_accuracy_figure(
                     names, {BarSeries{"accuracy", data.per_class_accuracy, series_color(0)}}));
  }
  FigureSvgs svgs;
  for (const std::string* png :
       {&data.confusion_png, &data.reconstruction_png, &data.loss_curve_png}) {
    if (png->empty() || drawn_now.count(*png) == 0) continue;
    // Written a moment ago, perhaps still staged in the run's output set.
    std::filesystem::path svg = OutputSet::readable_path(svg_path_for(folder / *png).string());
    std::error_code ignored;
    if (std::filesystem::is_regular_file(svg, ignored)) svgs[*png] = read_text_file(svg);
  }
  std::string html = render_html_report(data, svgs);
  write_file_atomically((folder / "report.json").string(), report_json(data));
  write_file_atomically(path.string(), html);
}

}  // namespace cae
