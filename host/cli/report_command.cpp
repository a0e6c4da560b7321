// `cae report RUN_DIR...`: renders a finished run's report.html again from
// the data files it left (report.json, confusion.csv, the loss CSV), or, with
// several run folders, a page comparing them (e.g. one pipeline on two backends).
#include <filesystem>
#include <iostream>

#include "commands.hpp"
#include "option_checks.hpp"
#include "path_options.hpp"
#include "report/run_comparison.hpp"
#include "report/run_folder.hpp"

namespace cae::cli {
namespace {

constexpr const char* kDefaultComparisonDir = "run-comparison";

// Rewrites files of the run's folder: a writer of it like the command that
// made it, so it holds the folder's lock (a pipeline still writing the
// folder, or another report, stops it at once) and writes only inside it.
int rerender(const std::string& folder) {
  std::error_code error;
  // Claiming would make the folder: one that is not there is no run.
  if (!std::filesystem::is_directory(folder, error)) read_run_folder(folder);
  const FolderClaim claim = claim_output_directory(folder, {}, "RUN_DIR");
  const RunFolder run = read_run_folder(folder);
  // report.json names the figures: checked before the first is drawn.
  check_created_paths("RUN_DIR", folder, rerendered_files(run));
  const std::filesystem::path report = rerender_run_report(run);
  std::cout << "report: " << report.string() << "\n";
  return 0;
}

int run_report(const po::variables_map& vm) {
  if (!vm.count("run-dir")) throw UsageError("name at least one run folder");
  const auto folders = vm["run-dir"].as<std::vector<std::string>>();
  if (folders.size() == 1) {
    if (vm.count("out")) throw UsageError("--out is for comparing several runs");
    return rerender(folders.front());
  }
  const std::string out = vm.count("out") ? vm["out"].as<std::string>() : kDefaultComparisonDir;
  const FolderClaim claim = claim_output_directory(out, run_comparison_files(), "--out");
  std::vector<RunFolder> runs;
  for (const std::string& folder : folders) runs.push_back(read_run_folder(folder));
  const std::filesystem::path page = write_run_comparison(out, runs);
  std::cout << "comparison: " << page.string() << "\n";
  return 0;
}

}  // namespace

Command report_command() {
  return {"report", "cae report RUN_DIR... [--out DIR]",
          "Render a finished run's report.html again; with several run folders, compare them",
          [](po::options_description& options, po::positional_options_description& positionals) {
            // clang-format off
            options.add_options()
                ("run-dir", path_values("RUN_DIR")->value_name("RUN_DIR"),
                 "a folder `cae pipeline` or `cae evaluate` wrote (repeatable)")
                ("out", path_value("--out")->value_name("DIR"),
                 "with several runs: where compare.html and its figures go (default: "
                 "run-comparison)");
            // clang-format on
            positionals.add("run-dir", -1);
          },
          run_report,
          "From a run folder's report.json, confusion.csv and loss CSV: report.html, one\n"
          "self-contained page with inline vector figures, and each figure as PNG and SVG.\n"
          "With several run folders: compare.html, their accuracy, per-class accuracy, loss\n"
          "curves and stage timings side by side.\n"};
}

}  // namespace cae::cli
