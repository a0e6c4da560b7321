#include "svm_selection.hpp"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <ostream>
#include <set>

#include "ignored_options.hpp"
#include "option_checks.hpp"
#include "report/stopwatch.hpp"
#include "svm/kernel_params.hpp"
#include "svm/pair_run.hpp"
#include "svm/predictor.hpp"
#include "svm/svm_error.hpp"
#include "svm/warm_search.hpp"
#include "svm_options.hpp"

namespace cae::cli {
namespace {

constexpr int64_t kDefaultValidationRows = 5000;

// "1,2,5" -> {"1", "2", "5"}; an empty item ("1,,2", "1,") is a mistake, not
// something to skip.
std::vector<std::string> split_list(const std::string& option, const std::string& text) {
  std::vector<std::string> items;
  size_t start = 0;
  while (true) {
    const size_t comma = text.find(',', start);
    items.push_back(text.substr(start, comma == std::string::npos ? comma : comma - start));
    if (items.back().empty()) {
      throw UsageError(option + " has an empty value in '" + text + "' (write values like 1,2,5)");
    }
    if (comma == std::string::npos) return items;
    start = comma + 1;
  }
}

// A number in [low, high]; NaN fails the comparison too.
double parse_number(const std::string& option, const std::string& text, double low, double high) {
  size_t used = 0;
  double value = 0.0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size()) throw UsageError(option + ": '" + text + "' is not a number");
  if (!(value >= low && value <= high)) {
    throw UsageError(option + ": " + text + " is outside " + number_text(low) + ".." +
                     number_text(high));
  }
  return value;
}

// The factor K of a "Kx" gamma: positive, and small enough that K times a
// scale gamma stays a normal float.
double gamma_factor(const std::string& text) {
  return parse_number("--search-gamma", text.substr(0, text.size() - 1), 1e-6, 1e6);
}

// "Kx" is K times the "scale" gamma of the rows the SVM is trained on,
// computed once (`scale`) for every such item of the list: it costs a pass
// over the training features.
svm::GammaPolicy gamma_of(const std::string& text, const svm::FeatureSet& train,
                          const std::vector<int64_t>& fit_rows, const svm::TrainOptions& base,
                          std::optional<double>& scale) {
  if (text.size() > 1 && text.back() == 'x') {
    const double factor = gamma_factor(text);
    if (!scale) {
      const svm::Standardizer standardizer =
          base.standardize ? svm::Standardizer::fit(train, fit_rows, base.threads)
                           : svm::Standardizer();
      scale = svm::resolve_gamma(svm::GammaPolicy::parse("scale"), train, fit_rows, standardizer,
                                 base.threads);
    }
    svm::GammaPolicy policy;
    policy.mode = svm::GammaPolicy::Mode::Value;
    policy.value = factor * *scale;
    return policy;
  }
  try {
    return svm::GammaPolicy::parse(text);
  } catch (const std::exception& e) {
    throw UsageError(std::string("--search-gamma: ") + e.what());
  }
}

}  // namespace

int64_t validation_rows(const std::string& rows, int64_t train_rows) {
  if (rows == "auto") return std::min(kDefaultValidationRows, train_rows / 10);
  return static_cast<int64_t>(std::stoll(rows));
}

svm::ValidationSplit split_and_say(const svm::FeatureSet& train, int64_t rows,
                                   const ValidationChoice& choice, const std::string& trainer,
                                   std::ostream& log) {
  svm::ValidationSplit split = svm::split_for_validation(train, rows, choice.seed);
  log << "validation: " << split.validation.rows << " of " << train.rows
      << " training rows held out (seed " << choice.seed << "); " << trainer
      << " trains on the other " << split.fit_rows.size() << "\n";
  return split;
}

void say_validation_accuracy(double accuracy, int64_t rows, std::ostream& log) {
  char line[96];
  std::snprintf(line, sizeof line, "validation accuracy: %.2f%% (%lld rows)\n", 100.0 * accuracy,
                static_cast<long long>(rows));
  log << line;
}

// --search-C auto. The linear classifier's objective sums its loss over the
// rows with weight C against 1/2 |W|^2 (no per-row averaging, as the kernel
// SVM's), and on 45,000 rows of CIFAR-10 features its validation accuracy
// peaks at C 0.001 (the seed network's codes) to 0.1 (the dense learners'),
// decades below the kernel SVM's 5: on the kernel SVM's grid it would stop at
// that grid's lowest C, 5 points below. C 0.00001 is left off: on every
// recipe measured it scored 14 to 19 points below the best and never won, and
// it costs an eighth of a dense learner's search. Where the grid's smallest
// or largest C wins, the search goes on past it (linear_selection.cpp).
constexpr char kKernelSvmSearchCs[] = "1,2,5,10,20";
constexpr char kLinearSearchCs[] = "0.0001,0.001,0.01,0.1";

void add_validation_options(po::options_description& options, const std::string& default_rows) {
  options.add_options()(
      "validation", po::value<std::string>()->default_value(default_rows)->value_name("N|auto"),
      "training rows held out to choose and check SVM settings (auto: min(5000, rows/10); 0: "
      "none)")("validation-seed", po::value<uint64_t>()->default_value(1)->value_name("S"),
               "seed of the validation split")(
      "search",
      "choose C and gamma on the validation split (every pair of --search-C, --search-gamma)")(
      "search-C", po::value<std::string>()->default_value("auto")->value_name("LIST|auto"),
      "values of C the search tries (only with --search; --C is refused with it); auto: "
      "1,2,5,10,20 for the kernel SVM, 0.0001,0.001,0.01,0.1 for --classifier linear "
      "(each chosen on the validation split of CIFAR-10's features, docs/classifiers.md; "
      "the linear grid goes on a decade at a time past an end C that wins, at most 3 "
      "decades)")(
      "search-exhaustive",
      "train every search candidate from scratch (the reference the default search is tested "
      "against: per gamma, the default computes the kernels once and starts each C from the "
      "previous C's solution, its alphas and gradient as they are; after the first gamma the "
      "slowest class pairs start first)")(
      "search-gamma", po::value<std::string>()->default_value("0.5x,1x,2x")->value_name("LIST"),
      "gammas the search tries: scale, auto, a number, or Kx (K times scale); only with --search");
}

ValidationChoice validation_choice_from(const po::variables_map& vm) {
  ValidationChoice c;
  c.rows = vm["validation"].as<std::string>();
  if (c.rows != "auto") {
    const bool digits = !c.rows.empty() && c.rows.size() < 10 &&
                        std::all_of(c.rows.begin(), c.rows.end(), ::isdigit);
    if (!digits)
      throw UsageError("--validation must be auto or a number of rows, got '" + c.rows + "'");
  }
  c.seed = vm["validation-seed"].as<uint64_t>();
  c.search = vm.count("search") > 0;
  c.exhaustive = vm.count("search-exhaustive") > 0;
  if (c.exhaustive && !c.search) throw UsageError("--search-exhaustive needs --search");
  // Options that would be ignored are refused (ignored_options.hpp).
  if (c.search) {
    refuse_given_options(vm, {"C", "gamma"},
                         "is not used with --search, which chooses C and gamma from --search-C "
                         "and --search-gamma; give the values there");
  } else {
    refuse_given_options(vm, {"search-C", "search-gamma"}, "is used only with --search");
  }
  const bool linear = vm.count("kernel") && vm["kernel"].as<std::string>() == "linear";
  if (linear) {
    refuse_given_options(vm, {"gamma", "search-gamma"},
                         "does not apply to --kernel linear, which has no gamma");
  }
  std::string Cs = vm["search-C"].as<std::string>();
  if (Cs == "auto") {
    const bool linear_classifier =
        vm.count("classifier") && vm["classifier"].as<std::string>() == "linear";
    Cs = linear_classifier ? kLinearSearchCs : kKernelSvmSearchCs;
    c.extend_Cs_past_a_winning_edge = linear_classifier;
  }
  for (const std::string& item : split_list("--search-C", Cs)) {
    c.Cs.push_back(parse_number("--search-C", item, kMinC, kMaxC));
  }
  c.gammas = split_list("--search-gamma", vm["search-gamma"].as<std::string>());
  // Every gamma is checked now, not when the search reaches it.
  for (const std::string& gamma : c.gammas) {
    if (gamma.size() > 1 && gamma.back() == 'x') {
      gamma_factor(gamma);
      continue;
    }
    try {
      svm::GammaPolicy::parse(gamma);
    } catch (const std::exception& e) {
      throw UsageError(std::string("--search-gamma: ") + e.what());
    }
  }
  // A command that holds nothing out by default (`cae svm`) still splits for a search.
  if (c.search && c.rows == "0" && vm["validation"].defaulted()) c.rows = "auto";
  if (c.search && c.rows == "0") {
    throw UsageError("--search chooses on a validation split: --validation must not be 0");
  }
  if (c.rows == "0") {
    refuse_given_options(vm, {"validation-seed"}, "is used only with a validation split (--validation N or auto)");
  }
  return c;
}

void check_svm_training_labels(const std::vector<int32_t>& labels, const ValidationChoice& choice,
                               const std::string& source) {
  const std::set<int32_t> classes(labels.begin(), labels.end());
  if (classes.size() < 2) {
    throw std::runtime_error(source + " holds " + std::to_string(classes.size()) +
                             (classes.size() == 1 ? " class" : " classes") +
                             "; an SVM needs at least two");
  }
  const int64_t rows = validation_rows(choice.rows, int64_t(labels.size()));
  if (rows == 0) {
    if (choice.rows == "auto" && choice.search) {
      throw UsageError("--search needs a validation split, but --validation auto holds out 0 of " +
                       std::to_string(labels.size()) + " training rows; give --validation N");
    }
    return;
  }
  try {
    svm::held_out_rows(labels, rows, choice.seed);
  } catch (const svm::SvmError& e) {
    throw UsageError("--validation " + choice.rows + ": " + e.what() + " (" + source + ")");
  }
}

namespace {

// Records how SMO held the kernel of the model it trained with `options`
// (auto as training resolves it: float32 for one training, the search's own
// choice for a search's winner), in the options and in the model file.
void record_kernel_values(SelectedSvm& selected, const svm::TrainOptions& options) {
  if (options.solver != svm::SolverKind::Smo) return;
  // The backend's solver reads the float32 kernel it computed.
  selected.options.kernel_values = selected.stats.solved_on_backend
                                       ? svm::KernelValues::Float32
                                       : svm::solver_settings(options).kernel_values;
  selected.model.kernel_values = svm::kernel_values_name(selected.options.kernel_values);
}

}  // namespace

SelectedSvm select_and_train_svm(const std::vector<Context*>& contexts,
                                 const svm::FeatureSet& train, const svm::TrainOptions& base,
                                 const ValidationChoice& choice, std::ostream& log) {
  SelectedSvm selected;
  select_and_train_svm(contexts, train, base, choice, log, selected, {});
  return selected;
}

void select_and_train_svm(const std::vector<Context*>& contexts, const svm::FeatureSet& train,
                          const svm::TrainOptions& base, const ValidationChoice& choice,
                          std::ostream& log, SelectedSvm& selected, const ModelReady& ready) {
  selected = SelectedSvm();
  selected.options = base;
  selected.validation_rows = validation_rows(choice.rows, train.rows);
  if (selected.validation_rows == 0) {
    selected.model = svm::train_ovo(contexts, train, base, &selected.stats);
    record_kernel_values(selected, base);
    if (ready) ready(selected.model);
    return;
  }
  const svm::ValidationSplit split =
      split_and_say(train, selected.validation_rows, choice, "the SVM", log);
  if (choice.search) {
    std::vector<svm::GammaPolicy> gammas;
    std::optional<double> scale;
    for (const std::string& g : choice.gammas)
      gammas.push_back(gamma_of(g, train, split.fit_rows, base, scale));
    char line[160];
    log << "search: " << choice.Cs.size() * gammas.size()
        << " (C, gamma) pairs, scored on the validation rows\n";
    const bool warm = !choice.exhaustive && base.solver == svm::SolverKind::Smo;
    log << "search: " << (warm ? "one kernel per gamma, every C seeded with the last one's solution"
                               : "every candidate trained from scratch")
        << "\n";
    auto search = warm ? svm::search_hyper_parameters_warm : svm::search_hyper_parameters;
    const Stopwatch search_time;
    svm::SearchOutcome outcome = search(
        contexts, train, split, base, choice.Cs, gammas,
        [&](size_t done, size_t total, const svm::SearchResult& r) {
          std::snprintf(line, sizeof line,
                        "  [%zu/%zu] C %-6g gamma %-10.4g validation %.2f%%  (%.1f s", done,
                        total, r.candidate.C, double(r.gamma_value), 100.0 * r.validation_accuracy,
                        r.seconds);
          log << line;
          if (r.solver_iterations > 0) {
            std::snprintf(line, sizeof line, "; SMO %lld iterations, %.1f thread-s",
                          static_cast<long long>(r.solver_iterations), r.solver_seconds);
            log << line;
          }
          log << ")\n";
          if (!r.phases.empty()) log << "  search phases: " << r.phases << "\n";
          log << std::flush;
        });
    selected.search_seconds = search_time.seconds();
    selected.search_warm = warm;
    selected.search = std::move(outcome.results);
    std::snprintf(line, sizeof line, "search: %zu candidates in %.2f s (%s)\n",
                  selected.search.size(), selected.search_seconds,
                  warm ? "warm-started" : "exhaustive");
    log << line;
    const svm::SearchResult& best = svm::best_of(selected.search);
    selected.options.C = best.candidate.C;
    selected.options.gamma = best.candidate.gamma;
    std::snprintf(line, sizeof line, "search: chose C %g, gamma %.4g (validation %.2f%%)\n",
                  best.candidate.C, double(best.gamma_value), 100.0 * best.validation_accuracy);
    log << line;
    // The search already trained and scored this model: keep it.
    selected.model = std::move(outcome.best_model);
    selected.stats = outcome.best_stats;
    selected.validation_accuracy = best.validation_accuracy;
    record_kernel_values(selected, svm::search_options(base));
    if (ready) ready(selected.model);
  } else {
    selected.model =
        svm::train_ovo(contexts, train, split.fit_rows, selected.options, &selected.stats);
    record_kernel_values(selected, base);
    if (ready) ready(selected.model);
    const svm::Prediction predicted = svm::predict(contexts, selected.model, split.validation);
    selected.validation_accuracy = svm::accuracy(predicted.labels, split.validation.labels);
  }
  say_validation_accuracy(selected.validation_accuracy, split.validation.rows, log);
}

std::string svm_phase_summary(const svm::TrainStats& stats) {
  char line[256];
  if (stats.solved_on_backend) {
    std::snprintf(line, sizeof line,
                  "svm phases: standardize %.2f s, gamma %.2f s, upload %.2f s, kernels %.2f s, "
                  "pairs solved on the backend %.2f s (up to %d at once; of %.2f s)\n",
                  stats.standardize_seconds, stats.gamma_seconds, stats.upload_seconds,
                  stats.kernel_seconds, stats.solve_seconds, stats.peak_pairs_in_flight,
                  stats.seconds);
    return line;
  }
  std::snprintf(line, sizeof line,
                "svm phases: standardize %.2f s, gamma %.2f s, upload %.2f s, kernels %.2f s "
                "(%d producer%s), waiting on the memory cap %.2f s, draining the solvers %.2f s "
                "(of %.2f s)\n",
                stats.standardize_seconds, stats.gamma_seconds, stats.upload_seconds,
                stats.kernel_seconds, stats.producers, stats.producers == 1 ? "" : "s",
                stats.memory_wait_seconds, stats.drain_seconds, stats.seconds);
  return line;
}

std::vector<std::pair<std::string, std::string>> svm_search_settings(const SelectedSvm& selected) {
  if (selected.search.empty()) return {};
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.3f", selected.search_seconds);
  return {{"svm search", std::to_string(selected.search.size()) + " candidates, " +
                             (selected.search_warm ? "warm-started (one kernel per gamma)"
                                                   : "exhaustive (every candidate cold)")},
          {"svm search s", seconds}};
}

std::vector<std::pair<std::string, std::string>> svm_phase_settings(const svm::TrainStats& stats) {
  auto seconds = [](double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3f", value);
    return std::string(text);
  };
  return {{"svm train s", seconds(stats.seconds)},
          {"svm standardize s", seconds(stats.standardize_seconds)},
          {"svm gamma s", seconds(stats.gamma_seconds)},
          {"svm upload s", seconds(stats.upload_seconds)},
          {"svm kernels s", seconds(stats.kernel_seconds)},
          {"svm kernel producers", std::to_string(stats.producers)},
          {"svm memory wait s", seconds(stats.memory_wait_seconds)},
          {"svm drain s", seconds(stats.drain_seconds)},
          {"svm solved on", stats.solved_on_backend ? "backend" : "host"},
          {"svm backend solve s", seconds(stats.solve_seconds)}};
}

}  // namespace cae::cli
