// report.html: one self-contained page that sums up a run.
#pragma once

#include <cstdint>
#include <filesystem>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "report/timing_table.hpp"

namespace cae {

// Everything the page shows, as plain values: the report knows nothing of
// backends or training; the caller fills this in. Empty fields leave their
// part of the page out.
struct ReportData {
  std::string title = "cae run report";
  // The run's settings, in the order to show them (e.g. {"epochs", "20"}).
  std::vector<std::pair<std::string, std::string>> settings;
  // Headline results besides accuracy (e.g. {"final test MSE", "0.0123"}).
  std::vector<std::pair<std::string, std::string>> summary;
  std::string backend;
  std::string device;
  StageTimings stage_timings;

  // Fractions in [0, 1]; NaN where undefined (shown as "n/a").
  double accuracy = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> per_class_accuracy;
  // Optional test samples per class, same order; empty to leave the column out.
  std::vector<std::int64_t> per_class_support;
  // One per class, same order; may be empty (numbers are shown).
  std::vector<std::string> class_names;

  // Files of the run, as paths relative to report.html.
  std::string confusion_png;
  std::string confusion_csv;
  std::string predictions_csv;
  std::string reconstruction_png;
  std::string loss_curve_png;
};

// The page's HTML. All text from `data` is escaped. Throws
// std::invalid_argument when per-class lists and class names disagree in size.
std::string render_html_report(const ReportData& data);

// Writes render_html_report() atomically; IoError (a std::runtime_error) names `path` on failure.
void write_html_report(const std::filesystem::path& path, const ReportData& data);

}  // namespace cae
