#include "report/run_comparison.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <stdexcept>

#include "io/atomic_file.hpp"
#include "report/class_names.hpp"
#include "report/html_escape.hpp"
#include "report/html_page.hpp"
#include "report/report_figures.hpp"

namespace cae {
namespace {

constexpr double kNoValue = std::numeric_limits<double>::quiet_NaN();
const char* kPerClassPng = "compare_per_class.png";
const char* kLossPng = "compare_loss.png";
const char* kTimingsPng = "compare_timings.png";
const char* kPage = "compare.html";

struct ComparisonFigures {
  std::vector<std::pair<std::string, Figure>> files;  // PNG name, figure
};

double total_seconds(const StageTimings& timings) {
  double total = 0.0;
  for (const auto& stage : timings) {
    if (std::isfinite(stage.second)) total += stage.second;
  }
  return total;
}

std::string seconds_text(double seconds) {
  if (!std::isfinite(seconds)) return "-";
  char text[32];
  std::snprintf(text, sizeof text, "%.3f", seconds);
  return text;
}

std::string header_row(const std::string& first, const std::vector<std::string>& names) {
  std::string html = "<tr><th>" + html_escape(first) + "</th>";
  for (const std::string& name : names)
    html += "<th class=\"number\">" + html_escape(name) + "</th>";
  return html + "</tr>\n";
}

// Class names of the first run that has per-class figures; runs with another
// class count get no bars (their table cells read n/a).
std::vector<std::string> shared_class_names(const std::vector<RunFolder>& runs) {
  for (const RunFolder& run : runs) {
    if (!run.data.per_class_accuracy.empty()) {
      return class_names_for(run.data.class_names,
                             static_cast<int>(run.data.per_class_accuracy.size()));
    }
  }
  return {};
}

std::vector<double> per_class_of(const RunFolder& run, std::size_t classes) {
  if (run.data.per_class_accuracy.size() != classes) return std::vector<double>(classes, kNoValue);
  return run.data.per_class_accuracy;
}

std::vector<LossSeries> overlaid_losses(const std::vector<RunFolder>& runs,
                                        const std::vector<std::string>& names) {
  std::vector<LossSeries> all;
  for (std::size_t r = 0; r < runs.size(); ++r) {
    for (std::size_t s = 0; s < runs[r].losses.size(); ++s) {
      LossSeries series = runs[r].losses[s];
      series.name = names[r] + ": " + series.name;
      series.color = series_color(r);
      // A run's first series (training loss) solid, the others dashed.
      series.dashed = s > 0;
      all.push_back(std::move(series));
    }
  }
  return all;
}

std::string runs_section(const std::vector<RunFolder>& runs, const std::vector<std::string>& names,
                         const std::filesystem::path& page_dir) {
  std::string html = "<section>\n<h2>Runs</h2>\n<table class=\"runs\">\n";
  html +=
      "<tr><th>run</th><th>backend</th><th>device</th><th class=\"number\">accuracy</th>"
      "<th class=\"number\">total seconds</th><th>report</th></tr>\n";
  for (std::size_t r = 0; r < runs.size(); ++r) {
    const ReportData& d = runs[r].data;
    html += "<tr><td>" + html_escape(names[r]) + "</td><td>" + html_escape(d.backend) +
            "</td><td>" + html_escape(d.device) + "</td><td class=\"number\">" +
            percent_text(d.accuracy) + "</td><td class=\"number\">" +
            seconds_text(total_seconds(d.stage_timings)) + "</td><td>" +
            html_link(std::filesystem::proximate(runs[r].path / "report.html", page_dir).string(),
                      "report.html") +
            "</td></tr>\n";
  }
  return html + "</table>\n</section>\n";
}

std::string per_class_section(const std::vector<RunFolder>& runs,
                              const std::vector<std::string>& names, const Figure* figure) {
  std::vector<std::string> classes = shared_class_names(runs);
  if (classes.empty()) return "";
  std::string html = "<section>\n<h2>Accuracy per class</h2>\n";
  if (figure)
    html += figure_html(*figure, "compare-per-class-", "accuracy per class", kPerClassPng);
  html += "<table class=\"per-class\">\n" + header_row("class", names);
  for (std::size_t c = 0; c < classes.size(); ++c) {
    html += "<tr><td>" + html_escape(classes[c]) + "</td>";
    for (const RunFolder& run : runs) {
      html +=
          "<td class=\"number\">" + percent_text(per_class_of(run, classes.size())[c]) + "</td>";
    }
    html += "</tr>\n";
  }
  return html + "</table>\n</section>\n";
}

std::string timings_section(const std::vector<RunFolder>& runs,
                            const std::vector<std::string>& names, const Figure& figure) {
  std::vector<std::string> stages;
  for (const RunFolder& run : runs) {
    for (const auto& stage : run.data.stage_timings) {
      if (std::find(stages.begin(), stages.end(), stage.first) == stages.end()) {
        stages.push_back(stage.first);
      }
    }
  }
  if (stages.empty()) return "";
  std::string html = "<section>\n<h2>Stage timings</h2>\n";
  html += figure_html(figure, "compare-timings-", "stage timings", kTimingsPng);
  html += "<table class=\"timings\">\n" + header_row("stage (seconds)", names);
  for (const std::string& stage : stages) {
    html += "<tr><td>" + html_escape(stage) + "</td>";
    for (const RunFolder& run : runs) {
      double seconds = kNoValue;
      for (const auto& s : run.data.stage_timings) {
        if (s.first == stage) seconds = s.second;
      }
      html += "<td class=\"number\">" + seconds_text(seconds) + "</td>";
    }
    html += "</tr>\n";
  }
  html += "<tr class=\"total\"><td>total</td>";
  for (const RunFolder& run : runs) {
    html += "<td class=\"number\">" + seconds_text(total_seconds(run.data.stage_timings)) + "</td>";
  }
  return html + "</tr>\n</table>\n</section>\n";
}

ComparisonFigures comparison_figures(const std::vector<RunFolder>& runs,
                                     const std::vector<std::string>& names) {
  ComparisonFigures figures;
  std::vector<std::string> classes = shared_class_names(runs);
  if (!classes.empty()) {
    std::vector<BarSeries> series;
    for (std::size_t r = 0; r < runs.size(); ++r) {
      series.push_back({names[r], per_class_of(runs[r], classes.size()), series_color(r)});
    }
    figures.files.emplace_back(kPerClassPng, per_class_accuracy_figure(classes, series));
  }
  std::vector<LossSeries> losses = overlaid_losses(runs, names);
  if (!losses.empty()) {
    LossCurveOptions options;
    options.width = 860;
    options.height = 440;
    options.title = "Loss per epoch (solid: training loss, dashed: test MSE)";
    options.log_scale = prefers_log_scale(losses);
    figures.files.emplace_back(kLossPng, loss_curve_figure(losses, options));
  }
  std::vector<StageTimings> timings;
  for (const RunFolder& run : runs) timings.push_back(run.data.stage_timings);
  figures.files.emplace_back(kTimingsPng, stage_timings_figure(names, timings));
  return figures;
}

const Figure* find_figure(const ComparisonFigures& figures, const std::string& png) {
  for (const auto& [name, figure] : figures.files) {
    if (name == png) return &figure;
  }
  return nullptr;
}

std::string render(const std::vector<RunFolder>& runs, const ComparisonFigures& figures,
                   const std::filesystem::path& page_dir) {
  std::vector<std::string> names = run_display_names(runs);
  std::string body = "<p class=\"meta\">" + std::to_string(runs.size()) + " runs compared.</p>\n";
  body += runs_section(runs, names, page_dir);
  body += per_class_section(runs, names, find_figure(figures, kPerClassPng));
  if (const Figure* loss = find_figure(figures, kLossPng)) {
    body += "<section>\n<h2>Loss per epoch</h2>\n" +
            figure_html(*loss, "compare-loss-", "loss per epoch", kLossPng) + "</section>\n";
  }
  body += timings_section(runs, names, *find_figure(figures, kTimingsPng));
  return html_page("cae run comparison", body);
}

}  // namespace

std::vector<std::string> run_display_names(const std::vector<RunFolder>& runs) {
  std::vector<std::string> names;
  for (const RunFolder& run : runs) {
    std::filesystem::path clean = run.path.lexically_normal();
    if (clean.has_filename()) {
      names.push_back(clean.filename().string());
    } else {
      names.push_back(clean.parent_path().filename().string());
    }
  }
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (std::count(names.begin(), names.end(), names[i]) > 1) {
      for (std::size_t j = 0; j < names.size(); ++j) {
        if (names[j] == names[i] && j != i) names[j] = runs[j].path.string();
      }
      names[i] = runs[i].path.string();
    }
  }
  return names;
}

std::string render_run_comparison(const std::vector<RunFolder>& runs,
                                  const std::filesystem::path& page_dir) {
  return render(runs, comparison_figures(runs, run_display_names(runs)), page_dir);
}

std::vector<std::string> run_comparison_files() {
  std::vector<std::string> names{kPage};
  for (const char* png : {kPerClassPng, kLossPng, kTimingsPng}) {
    names.push_back(png);
    names.push_back(svg_path_for(png).string());
  }
  return names;
}

std::filesystem::path write_run_comparison(const std::filesystem::path& out_dir,
                                           const std::vector<RunFolder>& runs) {
  if (runs.size() < 2) throw std::invalid_argument("a comparison needs at least two runs");
  ComparisonFigures figures = comparison_figures(runs, run_display_names(runs));
  for (const auto& [png, figure] : figures.files) write_figure(out_dir / png, figure);
  std::filesystem::path page = out_dir / kPage;
  write_file_atomically(page.string(), render(runs, figures, out_dir));
  return page;
}

}  // namespace cae
