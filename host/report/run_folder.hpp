// A finished run's folder (what `cae pipeline` / `cae evaluate` wrote), read
// back to render its report again or to compare it with other runs.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "report/html_report.hpp"
#include "report/loss_curve.hpp"

namespace cae {

struct RunFolder {
  std::filesystem::path path;
  ReportData data;                 // from report.json
  std::vector<LossSeries> losses;  // from the loss chart's CSV; empty without one
};

// Reads report.json and the loss CSV. Throws std::runtime_error naming the
// file when the folder is not a finished run (no report.json: "made by an
// older cae?") or a file is malformed.
RunFolder read_run_folder(const std::filesystem::path& folder);

// Draws the run's figures again from its data files (confusion.csv, the loss
// CSV; the reconstruction grid, which needs the model, is kept as written)
// and rewrites report.json and report.html. Returns the report's path.
std::filesystem::path rerender_run_report(const std::filesystem::path& folder);
std::filesystem::path rerender_run_report(const RunFolder& run);

// The names (relative to the run's folder, as report.json gives them) of
// every file rerender_run_report may write for `run`.
std::vector<std::string> rerendered_files(const RunFolder& run);

}  // namespace cae
