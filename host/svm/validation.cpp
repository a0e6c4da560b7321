#include "svm/validation.hpp"

#include <algorithm>
#include <chrono>
#include <numeric>
#include <random>
#include <set>

#include "svm/elapsed_seconds.hpp"
#include "svm/kernel_params.hpp"
#include "svm/predictor.hpp"
#include "svm/svm_error.hpp"

namespace cae::svm {
namespace {

FeatureSet rows_of(const FeatureSet& set, const std::vector<int64_t>& rows) {
  FeatureSet out;
  out.rows = static_cast<int64_t>(rows.size());
  out.dim = set.dim;
  out.values.resize(static_cast<size_t>(out.rows * out.dim));
  out.labels.reserve(rows.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    std::copy(set.row(rows[i]), set.row(rows[i]) + set.dim, out.values.begin() + i * set.dim);
    out.labels.push_back(set.labels[static_cast<size_t>(rows[i])]);
  }
  return out;
}

}  // namespace

std::vector<int64_t> held_out_rows(const std::vector<int32_t>& labels, int64_t validation_rows,
                                   uint64_t seed) {
  const int64_t rows = static_cast<int64_t>(labels.size());
  if (!(validation_rows > 0 && validation_rows < rows)) {
    throw SvmError("a validation split needs between 1 and " + std::to_string(rows - 1) +
                   " of the " + std::to_string(rows) + " training rows, got " +
                   std::to_string(validation_rows));
  }
  std::vector<int64_t> order(static_cast<size_t>(rows));
  std::iota(order.begin(), order.end(), 0);
  // mt19937_64 and a hand-written Fisher-Yates: std::shuffle's algorithm is
  // not specified, and the split must not change with the standard library.
  std::mt19937_64 engine(seed);
  for (size_t i = order.size(); i > 1; --i) {
    const size_t j = static_cast<size_t>(engine() % i);
    std::swap(order[i - 1], order[j]);
  }
  std::set<int32_t> fit;
  for (size_t i = size_t(validation_rows); i < order.size(); ++i) {
    fit.insert(labels[static_cast<size_t>(order[i])]);
  }
  const std::set<int32_t> all(labels.begin(), labels.end());
  if (fit != all) {
    throw SvmError("the validation split of " + std::to_string(validation_rows) +
                   " rows takes every row of a class: hold out fewer");
  }
  std::vector<int64_t> held(order.begin(), order.begin() + validation_rows);
  std::sort(held.begin(), held.end());
  return held;
}

ValidationSplit split_for_validation(const FeatureSet& train, int64_t validation_rows,
                                     uint64_t seed) {
  train.check("training features", true);
  const std::vector<int64_t> held = held_out_rows(train.labels, validation_rows, seed);
  std::vector<int64_t> kept;
  kept.reserve(size_t(train.rows) - held.size());
  size_t next_held = 0;
  for (int64_t row = 0; row < train.rows; ++row) {
    if (next_held < held.size() && held[next_held] == row) {
      ++next_held;
    } else {
      kept.push_back(row);
    }
  }
  return ValidationSplit{std::move(kept), rows_of(train, held)};
}

double accuracy(const std::vector<int32_t>& labels, const std::vector<int32_t>& truth) {
  if (labels.empty() || labels.size() != truth.size()) return 0.0;
  size_t right = 0;
  for (size_t i = 0; i < labels.size(); ++i) right += labels[i] == truth[i];
  return double(right) / double(labels.size());
}

TrainOptions search_options(const TrainOptions& base) {
  TrainOptions options = base;
  if (options.kernel_values == KernelValues::Auto) {
    options.kernel_values = options.kernel == KernelKind::Rbf && options.solver == SolverKind::Smo
                                ? KernelValues::Unorm16
                                : KernelValues::Float32;
  }
  return options;
}

SearchOutcome search_hyper_parameters(
    const std::vector<Context*>& contexts, const FeatureSet& train, const ValidationSplit& split,
    const TrainOptions& requested, const std::vector<double>& Cs,
    const std::vector<GammaPolicy>& gammas,
    const std::function<void(size_t, size_t, const SearchResult&)>& progress) {
  if (Cs.empty() || gammas.empty()) throw SvmError("the search needs at least one C and one gamma");
  const TrainOptions base = search_options(requested);
  SearchOutcome outcome;
  const size_t total = Cs.size() * gammas.size();
  for (double C : Cs) {
    for (const GammaPolicy& gamma : gammas) {
      const auto start = std::chrono::steady_clock::now();
      TrainOptions options = base;
      options.C = C;
      options.gamma = gamma;
      options.progress = nullptr;
      TrainStats stats;
      OvoModel model = train_ovo(contexts, train, split.fit_rows, options, &stats);
      const Prediction predicted = predict(contexts, model, split.validation);
      SearchResult r;
      r.candidate = {C, gamma};
      r.validation_accuracy = accuracy(predicted.labels, split.validation.labels);
      r.gamma_value = stats.gamma;
      r.seconds = seconds_since(start);
      if (outcome.results.empty() || better_than(r, best_of(outcome.results))) {
        outcome.best_model = std::move(model);
        outcome.best_stats = stats;
      }
      outcome.results.push_back(r);
      if (progress) progress(outcome.results.size(), total, r);
    }
  }
  return outcome;
}

bool better_than(const SearchResult& r, const SearchResult& best) {
  return r.validation_accuracy > best.validation_accuracy ||
         (r.validation_accuracy == best.validation_accuracy && r.candidate.C < best.candidate.C);
}

const SearchResult& best_of(const std::vector<SearchResult>& results) {
  if (results.empty()) throw SvmError("no search results");
  const SearchResult* best = &results.front();
  for (const SearchResult& r : results) {
    if (better_than(r, *best)) best = &r;
  }
  return *best;
}

}  // namespace cae::svm
