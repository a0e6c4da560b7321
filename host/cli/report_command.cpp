// `cae report RUN_DIR...`: renders a finished run's report.html again from
// the data files it left (report.json, confusion.csv, the loss CSV), or, with
// several run folders, a page comparing them (e.g. one pipeline on two backends).
#include <iostream>

#include "commands.hpp"
#include "io/directory.hpp"
#include "report/run_comparison.hpp"
#include "report/run_folder.hpp"

namespace cae::cli {
namespace {

constexpr const char* kDefaultComparisonDir = "run-comparison";

int run_report(const po::variables_map& vm) {
  if (!vm.count("run-dir")) throw UsageError("name at least one run folder");
  const auto folders = vm["run-dir"].as<std::vector<std::string>>();
  if (folders.size() == 1) {
    if (vm.count("out")) throw UsageError("--out is for comparing several runs");
    const std::filesystem::path report = rerender_run_report(folders.front());
    std::cout << "report: " << report.string() << "\n";
    return 0;
  }
  std::vector<RunFolder> runs;
  for (const std::string& folder : folders) runs.push_back(read_run_folder(folder));
  const std::string out = vm.count("out") ? vm["out"].as<std::string>() : kDefaultComparisonDir;
  ensure_directory(out);
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
                ("run-dir", po::value<std::vector<std::string>>()->value_name("RUN_DIR"),
                 "a folder `cae pipeline` or `cae evaluate` wrote (repeatable)")
                ("out", po::value<std::string>()->value_name("DIR"),
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
