#include "linear_selection.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <numeric>
#include <ostream>

#include "svm/elapsed_seconds.hpp"
#include "svm/validation.hpp"
#include "svm_options.hpp"

namespace cae::cli {
namespace {

void log_model(std::ostream& log, const svm::LinearModel& model, double seconds) {
  char line[160];
  std::snprintf(
      line, sizeof line, "linear: C %g, %d L-BFGS iterations (%s), training %s %.4f, %.1f s\n",
      model.C, model.iterations, model.converged ? "converged" : "iteration limit",
      model.objective == svm::LinearLoss::SquaredHinge ? "squared hinge" : "cross-entropy",
      model.loss, seconds);
  log << line;
}

// How many decades an auto grid goes on past a winning end (each way).
constexpr int kMostExtraDecades = 3;

}  // namespace

SelectedLinear select_and_train_linear(const svm::FeatureSet& train, const svm::LinearOptions& base,
                                       const ValidationChoice& choice, std::ostream& log) {
  const auto start = std::chrono::steady_clock::now();
  auto seconds = [&] { return svm::seconds_since(start); };
  SelectedLinear selected;
  selected.C = base.C;
  selected.validation_rows = validation_rows(choice.rows, train.rows);
  if (selected.validation_rows == 0) {
    selected.model = svm::train_linear(train, svm::all_rows(train), base);
    selected.seconds = seconds();
    log_model(log, selected.model, selected.seconds);
    return selected;
  }
  const svm::ValidationSplit split =
      split_and_say(train, selected.validation_rows, choice, "the classifier", log);
  auto score = [&](const svm::LinearModel& model) {
    return svm::accuracy(svm::predict_linear(model, split.validation, base.threads),
                         split.validation.labels);
  };
  if (!choice.search) {
    selected.model = svm::train_linear(train, split.fit_rows, base);
    selected.validation_accuracy = score(selected.model);
  } else {
    std::vector<size_t> order(choice.Cs.size());
    std::iota(order.begin(), order.end(), size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return choice.Cs[a] < choice.Cs[b]; });
    selected.search.resize(choice.Cs.size());
    log << "search: " << choice.Cs.size()
        << " values of C in ascending order, each starting from the last one's weights"
        << (choice.extend_Cs_past_a_winning_edge ? "; past an end C that wins, a decade further"
                                                 : "")
        << "\n";
    // One trainer for every C: the standardiser, the row groups and their
    // upload to the backend are made once.
    svm::LinearTrainer trainer(train, split.fit_rows, base);
    const svm::LinearTrainer::Accounting setup = trainer.accounting();
    char ready[160];
    std::snprintf(ready, sizeof ready, "search: %lld rows standardised and grouped%s in %.2f s",
                  static_cast<long long>(split.fit_rows.size()),
                  base.devices.empty() ? "" : ", and copied to the backend", setup.setup_seconds);
    log << ready;
    if (!base.devices.empty()) log << "; the loss between the products " << setup.loss_placement;
    log << "\n";
    svm::LinearModel previous;
    bool have_previous = false;
    // Trains and scores C (from the last C's weights), records it at
    // search[i] and keeps it if it is the best so far; its accuracy.
    auto try_C = [&](size_t i, double C) {
      // Every second of the C: its passes over the rows, the L-BFGS steps
      // between them, and the validation rows' scoring.
      const svm::LinearTrainer::Accounting before = trainer.accounting();
      const auto started = std::chrono::steady_clock::now();
      svm::LinearModel model = trainer.train(C, have_previous ? &previous : nullptr);
      const double training = svm::seconds_since(started);
      const svm::LinearTrainer::Accounting after = trainer.accounting();
      const auto scoring = std::chrono::steady_clock::now();
      const double accuracy = score(model);
      const double pass_seconds = after.pass_seconds - before.pass_seconds;
      selected.search[i] = {C, accuracy};
      // The passes' host time: folding the weights and summing the gradient
      // (and, on the backend, the time in its calls); what is left of a pass
      // is the loss's block sums and the fork-joins between.
      char in_backend[160] = "";
      if (!base.devices.empty()) {
        std::snprintf(in_backend, sizeof in_backend,
                      " (in backend calls %.2f s, folding %.2f s, gradient sums %.2f s)",
                      after.backend_seconds - before.backend_seconds,
                      after.fold_seconds - before.fold_seconds,
                      after.gradient_seconds - before.gradient_seconds);
      }
      char line[320];
      std::snprintf(line, sizeof line,
                    "  C %-8g validation %.2f%%  (%d iterations: %lld passes %.2f s%s, steps %.2f "
                    "s; scored in %.2f s)\n",
                    C, 100.0 * accuracy, model.iterations,
                    static_cast<long long>(after.passes - before.passes), pass_seconds, in_backend,
                    training - pass_seconds, svm::seconds_since(scoring));
      log << line << std::flush;
      // Highest accuracy; on a tie the smaller C (met first in ascending order).
      const bool best = !have_previous || accuracy > selected.validation_accuracy ||
                        (accuracy == selected.validation_accuracy && C < selected.C);
      if (best) {
        selected.validation_accuracy = accuracy;
        selected.model = model;
        selected.C = C;
      }
      previous = std::move(model);
      have_previous = true;
      return accuracy;
    };
    for (const size_t i : order) try_C(i, choice.Cs[i]);
    // An end of an auto grid that wins says the peak may lie past it (a
    // dense learner's features peaked at the old grid's top): a decade
    // further, each way, for as long as each new C scores higher than the
    // best before it.
    if (choice.extend_Cs_past_a_winning_edge && !order.empty()) {
      const double lowest = choice.Cs[order.front()], highest = choice.Cs[order.back()];
      for (const double step : {10.0, 0.1}) {
        double edge = step > 1 ? highest : lowest;
        for (int decade = 0; decade < kMostExtraDecades && selected.C == edge; ++decade) {
          const double C = edge * step;
          if (C < kMinC || C > kMaxC) break;
          const double best_before = selected.validation_accuracy;
          selected.search.push_back({C, NAN});
          if (!(try_C(selected.search.size() - 1, C) > best_before)) break;
          edge = C;
        }
      }
    }
    char line[96];
    std::snprintf(line, sizeof line, "search: chose C %g\n", selected.C);
    log << line;
  }
  selected.seconds = seconds();
  log_model(log, selected.model, selected.seconds);
  say_validation_accuracy(selected.validation_accuracy, split.validation.rows, log);
  return selected;
}

}  // namespace cae::cli
