#include "report/run_folder.hpp"

#include <set>
#include <stdexcept>

#include "report/confusion_csv.hpp"
#include "report/confusion_heatmap.hpp"
#include "report/figure.hpp"
#include "report/loss_csv.hpp"
#include "report/report_json.hpp"

namespace cae {
namespace {

bool is_file(const std::filesystem::path& path) {
  std::error_code ignored;
  return std::filesystem::is_regular_file(path, ignored);
}

std::filesystem::path loss_csv_path(const RunFolder& run) {
  std::filesystem::path png = run.path / run.data.loss_curve_png;
  return png.replace_extension(".csv");
}

}  // namespace

RunFolder read_run_folder(const std::filesystem::path& folder) {
  std::error_code ignored;
  if (!std::filesystem::is_directory(folder, ignored)) {
    throw std::runtime_error(folder.string() + ": not a folder");
  }
  std::filesystem::path json = folder / "report.json";
  // Anything of that name but a missing file is read, so that a FIFO or a
  // device is refused as such (io/regular_file.hpp), not called "missing".
  if (!std::filesystem::exists(std::filesystem::symlink_status(json, ignored))) {
    throw std::runtime_error(folder.string() +
                             ": no report.json (not a finished run, or made by an older cae)");
  }
  RunFolder run{folder, read_report_json(json), {}};
  if (!run.data.loss_curve_png.empty() && is_file(loss_csv_path(run))) {
    run.losses = read_loss_series_csv(loss_csv_path(run));
  }
  return run;
}

std::filesystem::path rerender_run_report(const std::filesystem::path& folder) {
  return rerender_run_report(read_run_folder(folder));
}

std::vector<std::string> rerendered_files(const RunFolder& run) {
  std::vector<std::string> names{"report.html", "report.json", kPerClassAccuracyPng,
                                 svg_path_for(kPerClassAccuracyPng).string()};
  for (const std::string& png : {run.data.confusion_png, run.data.loss_curve_png}) {
    if (png.empty()) continue;
    names.push_back(png);
    names.push_back(svg_path_for(png).string());
  }
  if (!run.data.loss_curve_png.empty()) {
    names.push_back(std::filesystem::path(run.data.loss_curve_png).replace_extension(".csv").string());
  }
  return names;
}

std::filesystem::path rerender_run_report(const RunFolder& run) {
  const std::filesystem::path& folder = run.path;
  const ReportData& data = run.data;
  // Only the figures drawn here are inlined as SVG; the others (the
  // reconstructions, whose images are not kept) are shown from their PNG.
  std::set<std::string> drawn_now;
  if (!data.confusion_png.empty() && !data.confusion_csv.empty() &&
      is_file(folder / data.confusion_csv)) {
    ConfusionTable table = read_confusion_csv(folder / data.confusion_csv);
    HeatmapOptions heatmap;
    heatmap.title = "confusion (rows: true class)";
    write_confusion_heatmap_png(folder / data.confusion_png, table.matrix, table.class_names,
                                heatmap);
    drawn_now.insert(data.confusion_png);
  }
  if (!run.losses.empty()) {
    LossCurveOptions curve;
    curve.log_scale = prefers_log_scale(run.losses);
    write_loss_curve_png(folder / data.loss_curve_png, run.losses, curve);
    drawn_now.insert(data.loss_curve_png);
  }
  std::filesystem::path report = folder / "report.html";
  write_html_report(report, data, drawn_now);
  return report;
}

}  // namespace cae
