#include "pipeline_defaults.hpp"

#include <cstddef>
#include <ostream>
#include <string>

#include "ignored_options.hpp"
#include "option_checks.hpp"

namespace cae::cli {

namespace {
// The validation winner's features (docs/PERF.md, the ingredients table),
// trained for kBestEpochs: 60 epochs scored 0.58 points above 20 on the
// validation split, more than the seeds' spread, at twice the wall time.
constexpr const char* kBestEpochs = "60";
constexpr const char* kBestFeatures =
    "conv1:tri:sum4+conv2:tri:sum4+conv2:tri:sum2+latent:tri:max4+latent:tri:max2+flip+sqrt";

// `recipe` over lines of at most `width` characters, broken after a '+': a
// help column breaks a longer token wherever the column ends, in the middle
// of a term.
std::string broken_after_plus(const std::string& recipe, std::size_t width) {
  std::string text, line;
  std::size_t start = 0;
  while (start < recipe.size()) {
    const std::size_t plus = recipe.find('+', start);
    const std::size_t end = plus == std::string::npos ? recipe.size() : plus + 1;
    const std::string term = recipe.substr(start, end - start);
    if (!line.empty() && line.size() + term.size() > width) {
      text += line + "\n";
      line.clear();
    }
    line += term;
    start = end;
  }
  return text + line;
}
}  // namespace

void add_pipeline_defaults_option(po::options_description& options) {
  // The recipe on lines of its own, without --features before it, broken
  // after a '+' to fit the help column.
  const std::string help =
      std::string("what options not given mean: best (the validation winner:\n--features\n") +
      broken_after_plus(kBestFeatures, 48) + "\n--augment flip --contrast-normalize --epochs " +
      kBestEpochs +
      " --search; an option given replaces its part, and the synthetic set keeps its own shorter "
      "schedule) or "
      "baseline (the seed's settings: latent features, no augmentation or input transform, one "
      "SVM fit at --C 5)";
  options.add_options()(
      "defaults", po::value<std::string>()->default_value("best")->value_name("best|baseline"),
      help.c_str());
}

std::vector<std::string> implied_pipeline_arguments(const po::variables_map& given,
                                                    bool synthetic_data) {
  const std::string defaults = given["defaults"].as<std::string>();
  if (defaults == "baseline") return {};
  if (defaults != "best") {
    throw UsageError("--defaults must be best or baseline, got '" + defaults + "'");
  }
  std::vector<std::string> args;
  if (!option_given(given, "features")) args.insert(args.end(), {"--features", kBestFeatures});
  if (!option_given(given, "augment")) args.insert(args.end(), {"--augment", "flip"});
  if (!option_given(given, "contrast-normalize")) args.push_back("--contrast-normalize");
  // The generated set keeps its own short schedule (pipeline_command.cpp).
  if (!synthetic_data && !option_given(given, "epochs")) {
    args.insert(args.end(), {"--epochs", kBestEpochs});
  }
  if (!given.count("search") && !option_given(given, "C") && !option_given(given, "gamma")) {
    args.push_back("--search");
  }
  return args;
}

po::variables_map with_pipeline_defaults(const po::variables_map& given,
                                         const po::options_description& options,
                                         const std::vector<std::string>& implied) {
  po::variables_map vm = given;
  if (implied.empty()) return vm;
  // store() keeps every value the user gave: the implied ones only fill in.
  const po::parsed_options parsed = po::command_line_parser(implied).options(options).run();
  po::store(parsed, vm);
  po::notify(vm);
  check_option_values(parsed, vm);
  return vm;
}

void log_pipeline_defaults(const std::vector<std::string>& implied, std::ostream& log) {
  if (implied.empty()) return;
  log << "defaults: best recipe:";
  for (const std::string& arg : implied) log << " " << arg;
  log << " (--defaults baseline for the seed's settings)\n";
}

}  // namespace cae::cli
