// report.html: one self-contained page that sums up a run.
#pragma once

#include <cstdint>
#include <filesystem>
#include <limits>
#include <map>
#include <set>
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
  // The per-class accuracy chart's PNG (write_html_report draws it).
  std::string per_class_png;
};

// SVG documents of the figures, keyed by the PNG path ReportData names them by.
using FigureSvgs = std::map<std::string, std::string>;

// The page's HTML. A figure whose PNG has an SVG in `svgs` is drawn inline as
// vector graphics (linking its PNG), otherwise shown as <img>; the per-class
// accuracy chart is drawn from the data. All text from `data` is escaped.
// Throws std::invalid_argument when per-class lists and class names disagree in size.
std::string render_html_report(const ReportData& data, const FigureSvgs& svgs = {});

// The per-class accuracy chart write_html_report draws beside the page.
constexpr const char* kPerClassAccuracyPng = "per_class_accuracy.png";

// In the folder of `path`: draws per_class_accuracy.png (and .svg) when there
// are per-class figures, writes report.json (report_json.hpp: everything the
// page shows, so `cae report` can render it again) and report.html, which
// inlines the SVG written next to each PNG. Each file is written atomically;
// IoError (a std::runtime_error) names the path on failure.
// Every figure's SVG must have been drawn by this process: an SVG is markup,
// and one from elsewhere could carry a script into the page.
void write_html_report(const std::filesystem::path& path, const ReportData& data);

// The same when only the figures in `drawn_now` (PNG names as `data` gives
// them) were drawn by this process (`cae report` redraws what it has data
// for): any other figure is shown as <img> of its PNG, never inlined.
void write_html_report(const std::filesystem::path& path, const ReportData& data,
                       const std::set<std::string>& drawn_now);

}  // namespace cae
