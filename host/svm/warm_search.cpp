#include "svm/warm_search.hpp"

#include <cblas.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <optional>

#include "common/parallel.hpp"
#include "plugin/per_device.hpp"
#include "svm/class_layout.hpp"
#include "svm/kernel_blocks.hpp"
#include "svm/kernel_params.hpp"
#include "svm/kernel_producers.hpp"
#include "svm/pair_run.hpp"
#include "svm/predictor.hpp"
#include "svm/smo_solver.hpp"
#include "svm/svm_error.hpp"

namespace cae::svm {

namespace {

using Clock = std::chrono::steady_clock;

// Index of the pair (first, second) in class_pairs() order.
size_t pair_index(const ClassPair& pair, int32_t classes) {
  const size_t first = static_cast<size_t>(pair.first);
  const size_t k = static_cast<size_t>(classes);
  return first * (2 * k - first - 1) / 2 + static_cast<size_t>(pair.second - pair.first - 1);
}

// The pairs by their solve times, longest first (ties in pair order): the
// next gamma's pairs take about as long relative to each other.
std::vector<ClassPair> slowest_first(const std::vector<ClassPair>& pairs,
                                     const std::vector<double>& seconds) {
  std::vector<size_t> index(pairs.size());
  std::iota(index.begin(), index.end(), size_t{0});
  std::stable_sort(index.begin(), index.end(),
                   [&](size_t a, size_t b) { return seconds[a] > seconds[b]; });
  std::vector<ClassPair> out;
  for (const size_t i : index) out.push_back(pairs[i]);
  return out;
}

// Decision values of the validation rows for every pair and every C:
// decisions[a][v * pairs + p] for C number `a` of the chain. One kernel block
// per class, K(class rows, validation rows), multiplied by the coefficients
// of every pair of that class and every C at once (one SGEMM).
std::vector<std::vector<double>> validation_decisions(
    Context& context, const ClassLayout& layout, const std::vector<DeviceRows>& class_rows,
    const DeviceRows& held_out, const KernelSpec& spec,
    const std::vector<std::vector<SmoPairSolution>>& chains) {
  const int32_t classes = layout.class_count();
  const std::vector<ClassPair> pairs = class_pairs(classes);
  const size_t chain_length = chains.front().size();
  const int64_t nv = held_out.rows();
  std::vector<std::vector<double>> decisions(
      chain_length, std::vector<double>(static_cast<size_t>(nv) * pairs.size(), 0.0));
  KernelBlocks blocks(context, spec);
  std::vector<float> weights;
  std::vector<float> products;
  for (int32_t c = 0; c < classes; ++c) {
    const std::vector<int64_t>& rows = layout.rows[static_cast<size_t>(c)];
    const int64_t n = static_cast<int64_t>(rows.size());
    std::vector<size_t> mine;  // pairs of class c
    for (size_t p = 0; p < pairs.size(); ++p) {
      if (pairs[p].first == c || pairs[p].second == c) mine.push_back(p);
    }
    // weights [mine x chain, n]: each solution's coefficients on class c's rows.
    const int64_t m = static_cast<int64_t>(mine.size() * chain_length);
    weights.assign(static_cast<size_t>(m * n), 0.0f);
    for (size_t q = 0; q < mine.size(); ++q) {
      for (size_t a = 0; a < chain_length; ++a) {
        const PairSolution& s = chains[mine[q]][a].solution;
        float* out = weights.data() + (q * chain_length + a) * static_cast<size_t>(n);
        for (size_t k = 0; k < s.support.size(); ++k) {
          const auto at = std::lower_bound(rows.begin(), rows.end(), s.support[k]);
          if (at != rows.end() && *at == s.support[k]) out[at - rows.begin()] = s.coef[k];
        }
      }
    }
    const std::unique_ptr<float[]> kernel =
        blocks.compute(class_rows[static_cast<size_t>(c)], held_out);  // [n, nv]
    products.resize(static_cast<size_t>(m * nv));
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(m),
                static_cast<int>(nv), static_cast<int>(n), 1.0f, weights.data(),
                static_cast<int>(n), kernel.get(), static_cast<int>(nv), 0.0f, products.data(),
                static_cast<int>(nv));
    for (size_t q = 0; q < mine.size(); ++q) {
      for (size_t a = 0; a < chain_length; ++a) {
        const float* row = products.data() + (q * chain_length + a) * static_cast<size_t>(nv);
        std::vector<double>& out = decisions[a];
        for (int64_t v = 0; v < nv; ++v) out[static_cast<size_t>(v) * pairs.size() + mine[q]] += row[v];
      }
    }
  }
  blocks.release();
  for (size_t p = 0; p < pairs.size(); ++p) {
    for (size_t a = 0; a < chain_length; ++a) {
      const double rho = chains[p][a].solution.rho;
      for (int64_t v = 0; v < nv; ++v) decisions[a][static_cast<size_t>(v) * pairs.size() + p] -= rho;
    }
  }
  return decisions;
}

// Validation accuracy of decision values [rows, pairs], voting as predict() does.
double accuracy_of(const std::vector<double>& decisions, const ClassLayout& layout,
                   const FeatureSet& validation) {
  OvoModel voter;  // only what vote() reads
  voter.classes = layout.labels;
  for (const ClassPair& pair : class_pairs(layout.class_count())) {
    voter.pairs.push_back({pair, {}, {}, 0.0f});
  }
  const size_t pair_count = voter.pairs.size();
  std::vector<float> row(pair_count);
  std::vector<int> votes;
  std::vector<int32_t> labels(static_cast<size_t>(validation.rows));
  for (size_t v = 0; v < labels.size(); ++v) {
    for (size_t p = 0; p < pair_count; ++p) {
      row[p] = static_cast<float>(decisions[v * pair_count + p]);
    }
    labels[v] = vote(voter, row.data(), votes);
  }
  return accuracy(labels, validation.labels);
}

// One gamma's phases, as a line for the search's progress.
std::string gamma_phases(const TrainStats& stats, double scoring_seconds, double seconds) {
  char line[256];
  std::snprintf(line, sizeof line,
                "kernels %.2f s (%d producer%s), waiting on the memory cap %.2f s, draining the "
                "solvers %.2f s, validation scores %.2f s, of %.2f s on %d worker threads",
                stats.kernel_seconds, stats.producers, stats.producers == 1 ? "" : "s",
                stats.memory_wait_seconds, stats.drain_seconds, scoring_seconds, seconds,
                stats.threads);
  return line;
}

}  // namespace

std::vector<SmoPairSolution> solve_pair_for_each_C(const PairRows& rows, const PairKernel& kernel,
                                                   const std::vector<double>& ascending_Cs,
                                                   const SolverSettings& settings) {
  std::vector<SmoPairSolution> out;
  // The previous C's solution, alphas and gradient as they are: inside the
  // larger box, still y'a = 0, and G = Q a - e does not depend on C.
  SmoResult previous;
  double previous_C = 0.0;
  for (const double C : ascending_Cs) {
    if (!out.empty() && C < previous_C) throw SvmError("alpha seeding needs the Cs ascending");
    const SmoSettings smo{C, settings.eps, settings.shrinking, 0};
    const auto start = Clock::now();
    previous = out.empty() ? solve_smo(kernel, smo)
                           : solve_smo(kernel, smo, previous.alpha, previous.gradient);
    previous_C = C;
    out.push_back(pair_solution_of(rows, previous));
    out.back().seconds = std::chrono::duration<double>(Clock::now() - start).count();
  }
  return out;
}

SearchOutcome search_hyper_parameters_warm(
    const std::vector<Context*>& contexts, const FeatureSet& train, const ValidationSplit& split,
    const TrainOptions& base, const std::vector<double>& Cs, const std::vector<GammaPolicy>& gammas,
    const std::function<void(size_t, size_t, const SearchResult&)>& progress) {
  if (Cs.empty() || gammas.empty()) throw SvmError("the search needs at least one C and one gamma");
  if (base.solver != SolverKind::Smo) {
    throw SvmError("the warm-started search needs the smo solver");
  }
  if (contexts.empty()) throw SvmError("the SVM needs at least one backend context");
  for (const double C : Cs) {
    if (!(C > 0.0) || !std::isfinite(C)) throw SvmError("SVM C must be a positive number");
  }
  const ClassLayout layout = ClassLayout::of(train, split.fit_rows);
  const int threads = resolve_thread_count(base.threads);
  auto phase = Clock::now();
  const Standardizer standardizer =
      base.standardize ? Standardizer::fit(train, split.fit_rows, threads) : Standardizer();
  const double standardize_seconds =
      std::chrono::duration<double>(Clock::now() - phase).count();
  // The chain runs in ascending C; position[i] is Cs[i]'s place in it.
  std::vector<size_t> order(Cs.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return Cs[a] < Cs[b]; });
  std::vector<double> ascending;
  std::vector<size_t> position(Cs.size());
  for (size_t k = 0; k < order.size(); ++k) {
    ascending.push_back(Cs[order[k]]);
    position[order[k]] = k;
  }
  const std::vector<ClassPair> pairs = class_pairs(layout.class_count());
  const size_t total = Cs.size() * gammas.size();
  std::vector<SearchResult> grid(total);  // C-major, as the exhaustive search orders them
  SearchOutcome outcome;
  const SearchResult* best = nullptr;
  std::vector<PairSolution> best_solutions;
  float best_gamma = 0.0f;
  double best_C = 0.0;
  size_t done = 0;
  // The rows go to each context once for the whole search, not once per
  // gamma for the kernels and again for the validation scores.
  phase = Clock::now();
  const int64_t tile_rows = base.tile_rows ? base.tile_rows : kDefaultTileRows;
  std::vector<std::vector<DeviceRows>> resident(contexts.size());
  run_per_device(contexts.size(), [&](size_t d) {
    resident[d] = upload_class_rows(*contexts[d], train, layout, standardizer, tile_rows);
  });
  std::vector<const std::vector<DeviceRows>*> resident_rows;
  for (const std::vector<DeviceRows>& rows : resident) resident_rows.push_back(&rows);
  std::optional<DeviceRows> held_out;
  held_out.emplace(upload_rows(*contexts.front(), split.validation, all_rows(split.validation),
                               standardizer, tile_rows));
  const double upload_seconds = std::chrono::duration<double>(Clock::now() - phase).count();
  std::vector<double> pair_seconds(pairs.size(), 0.0);  // the last gamma's, per pair
  std::vector<ClassPair> pair_order;                    // empty: largest first
  for (size_t g = 0; g < gammas.size(); ++g) {
    const auto start = Clock::now();
    TrainStats stats;
    stats.standardize_seconds = g == 0 ? standardize_seconds : 0.0;
    const double resident_upload_seconds = g == 0 ? upload_seconds : 0.0;
    phase = Clock::now();
    const KernelSpec spec{base.kernel,
                          static_cast<float>(resolve_gamma(gammas[g], train, split.fit_rows,
                                                           standardizer, threads))};
    stats.gamma_seconds = std::chrono::duration<double>(Clock::now() - phase).count();
    PairRunInput input = pair_run_input(train, layout, standardizer, spec, base);
    input.options.progress = nullptr;
    input.order = pair_order;
    input.resident_rows = resident_rows;
    // Every C's solution (alphas as floats, support rows) and the chain's
    // alphas and gradient.
    input.extra_solver_bytes_per_row = ascending.size() * 16 + 2 * sizeof(double);
    const SolverSettings settings = solver_settings(base);
    std::vector<std::vector<SmoPairSolution>> chains(pairs.size());
    run_class_pairs(
        contexts, input,
        [&](const PairRows& rows, PairWorkspace& workspace, const float* const diagonal[2]) {
          const size_t index = pair_index(rows.pair, layout.class_count());
          chains[index] = solve_pair_for_each_C(rows, smo_pair_kernel(rows, workspace, diagonal),
                                                ascending, settings);
          pair_seconds[index] = 0.0;
          for (const SmoPairSolution& link : chains[index]) pair_seconds[index] += link.seconds;
          return chains[index].back().solution;  // the scheduler's record; the chain counts
        },
        stats);
    stats.upload_seconds += resident_upload_seconds;  // the first gamma's share of the search's
    pair_order = slowest_first(pairs, pair_seconds);
    const auto scoring_start = Clock::now();
    const std::vector<std::vector<double>> decisions = validation_decisions(
        *contexts.front(), layout, resident[0], *held_out, spec, chains);
    const double scoring_seconds =
        std::chrono::duration<double>(Clock::now() - scoring_start).count();
    const double seconds =
        std::chrono::duration<double>(Clock::now() - start).count() + resident_upload_seconds;
    const SearchResult* best_before = best;
    size_t best_link = 0;
    for (size_t i = 0; i < Cs.size(); ++i) {
      SearchResult& r = grid[i * gammas.size() + g];
      r.candidate = {Cs[i], gammas[g]};
      r.validation_accuracy = accuracy_of(decisions[position[i]], layout, split.validation);
      r.gamma_value = spec.gamma;
      r.seconds = seconds / static_cast<double>(Cs.size());
      for (const std::vector<SmoPairSolution>& chain : chains) {
        r.solver_iterations += chain[position[i]].iterations;
        r.solver_seconds += chain[position[i]].seconds;
      }
      if (i + 1 == Cs.size()) r.gamma_phases = gamma_phases(stats, scoring_seconds, seconds);
      if (!best || better_than(r, *best)) {
        best = &r;
        best_link = position[i];
      }
      if (progress) progress(++done, total, r);
    }
    if (best != best_before) {
      // Only the winner's coefficients are kept; its model (a copy of the
      // support vectors, gigabytes at CIFAR-10's size) is assembled once, at the end.
      best_solutions.clear();
      int unconverged = 0;
      for (const std::vector<SmoPairSolution>& chain : chains) {
        best_solutions.push_back(chain[best_link].solution);
        unconverged += chain[best_link].converged ? 0 : 1;
      }
      best_gamma = spec.gamma;
      best_C = ascending[best_link];
      stats.gamma = spec.gamma;
      stats.unconverged_pairs = unconverged;
      stats.seconds = seconds;
      outcome.best_stats = stats;
    }
  }
  // Freed before the model's copy of its support vectors is made: with a
  // backend whose tensors live in host memory, both would count at once.
  held_out.reset();
  resident_rows.clear();
  resident.clear();
  outcome.best_model = assemble_model(train, layout, standardizer, std::move(best_solutions),
                                      base.kernel, best_gamma, best_C);
  outcome.best_stats.support_vectors = outcome.best_model.sv_count;
  outcome.results = std::move(grid);
  return outcome;
}

}  // namespace cae::svm
