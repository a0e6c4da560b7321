#include "svm/warm_search.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <memory>
#include <mutex>
#include <numeric>
#include <optional>
#include <thread>

#include "common/parallel.hpp"
#include "plugin/per_device.hpp"
#include "svm/class_layout.hpp"
#include "svm/device_pairs.hpp"
#include "svm/elapsed_seconds.hpp"
#include "svm/kernel_blocks.hpp"
#include "svm/kernel_params.hpp"
#include "svm/kernel_producers.hpp"
#include "svm/pair_run.hpp"
#include "svm/pair_share.hpp"
#include "svm/predictor.hpp"
#include "svm/smo_solver.hpp"
#include "svm/svm_error.hpp"
#include "svm/weighted_kernel_sums.hpp"

namespace cae::svm {

namespace {

using Clock = std::chrono::steady_clock;

// Index of the pair (first, second) in class_pairs() order.
size_t pair_index(const ClassPair& pair, int32_t classes) {
  const size_t first = static_cast<size_t>(pair.first);
  const size_t k = static_cast<size_t>(classes);
  return first * (2 * k - first - 1) / 2 + static_cast<size_t>(pair.second - pair.first - 1);
}

// Decision values of the validation rows for every pair and every C, for
// several gammas: decisions[g][a][v * pairs + p] for gamma g and C number
// `a` of the chain. Per class, the coefficients of every pair of that class
// and every C at once weigh K(validation rows, class rows) on the device
// (svm/weighted_kernel_sums.hpp), the gammas' kernels made from one product
// where the backend can (WeightedKernelSums::add_to_each).
using Chains = std::vector<std::vector<SmoPairSolution>>;  // [pair][C]
std::vector<std::vector<std::vector<double>>> validation_decisions(
    Context& context, const ClassLayout& layout, const std::vector<DeviceRows>& class_rows,
    const DeviceRows& held_out, const std::vector<KernelSpec>& specs,
    const std::vector<const Chains*>& chains) {
  const int32_t classes = layout.class_count();
  const std::vector<ClassPair> pairs = class_pairs(classes);
  const size_t gammas = specs.size();
  const size_t chain_length = chains.front()->front().size();
  const int64_t nv = held_out.rows();
  std::vector<std::vector<std::vector<double>>> decisions(
      gammas, std::vector<std::vector<double>>(
                  chain_length, std::vector<double>(static_cast<size_t>(nv) * pairs.size(), 0.0)));
  std::vector<float> weights;
  std::vector<std::vector<double>> products(gammas);
  for (int32_t c = 0; c < classes; ++c) {
    const std::vector<int64_t>& rows = layout.rows[static_cast<size_t>(c)];
    const int64_t n = static_cast<int64_t>(rows.size());
    std::vector<size_t> mine;  // pairs of class c
    for (size_t p = 0; p < pairs.size(); ++p) {
      if (pairs[p].first == c || pairs[p].second == c) mine.push_back(p);
    }
    // weights [mine x chain, n]: each solution's coefficients on class c's rows.
    const int64_t m = static_cast<int64_t>(mine.size() * chain_length);
    std::vector<std::unique_ptr<WeightedKernelSums>> sums;
    std::vector<WeightedKernelSums*> each;
    std::vector<double*> outputs;
    for (size_t g = 0; g < gammas; ++g) {
      weights.assign(static_cast<size_t>(m * n), 0.0f);
      for (size_t q = 0; q < mine.size(); ++q) {
        for (size_t a = 0; a < chain_length; ++a) {
          const PairSolution& s = (*chains[g])[mine[q]][a].solution;
          float* out = weights.data() + (q * chain_length + a) * static_cast<size_t>(n);
          for (size_t k = 0; k < s.support.size(); ++k) {
            const auto at = std::lower_bound(rows.begin(), rows.end(), s.support[k]);
            if (at != rows.end() && *at == s.support[k]) out[at - rows.begin()] = s.coef[k];
          }
        }
      }
      sums.push_back(std::make_unique<WeightedKernelSums>(
          context, class_rows[static_cast<size_t>(c)], weights.data(), m, specs[g]));
      each.push_back(sums.back().get());
      products[g].assign(static_cast<size_t>(m * nv), 0.0);  // [mine x chain, nv]
      outputs.push_back(products[g].data());
    }
    WeightedKernelSums::add_to_each(each, held_out, outputs);
    for (size_t g = 0; g < gammas; ++g) {
      for (size_t q = 0; q < mine.size(); ++q) {
        for (size_t a = 0; a < chain_length; ++a) {
          const double* row = products[g].data() + (q * chain_length + a) * static_cast<size_t>(nv);
          std::vector<double>& out = decisions[g][a];
          for (int64_t v = 0; v < nv; ++v) {
            out[static_cast<size_t>(v) * pairs.size() + mine[q]] += row[v];
          }
        }
      }
    }
  }
  for (size_t g = 0; g < gammas; ++g) {
    for (size_t p = 0; p < pairs.size(); ++p) {
      for (size_t a = 0; a < chain_length; ++a) {
        const double rho = (*chains[g])[p][a].solution.rho;
        for (int64_t v = 0; v < nv; ++v) {
          decisions[g][a][static_cast<size_t>(v) * pairs.size() + p] -= rho;
        }
      }
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

// The search's phases, as a line for its progress.
std::string search_phases(const TrainStats& stats, double scoring_seconds, bool scorer_of_its_own,
                          double seconds) {
  char line[288];
  std::snprintf(line, sizeof line,
                "kernels %.2f s (%d producer%s), waiting on the memory cap %.2f s, draining the "
                "solvers %.2f s, validation scores %.2f s (%s), of %.2f s on %d worker threads",
                stats.kernel_seconds, stats.producers, stats.producers == 1 ? "" : "s",
                stats.memory_wait_seconds, stats.drain_seconds, scoring_seconds,
                scorer_of_its_own ? "on a context of their own" : "on the producer's context",
                seconds, stats.threads);
  return line;
}

// Where the search's wall time went when the backend solved the pairs.
std::string backend_search_phases(const TrainStats& stats, double scoring_seconds, double seconds) {
  char line[288];
  std::snprintf(line, sizeof line,
                "pairs solved on the backend (%d context%s): rows up %.2f s, kernels %.2f s, "
                "solves %.2f s (up to %d pairs at once), validation scores %.2f s, of %.2f s",
                stats.producers, stats.producers == 1 ? "" : "s", stats.upload_seconds,
                stats.kernel_seconds, stats.solve_seconds, stats.peak_pairs_in_flight,
                scoring_seconds, seconds);
  return line;
}

// Which gammas have every pair solved: the workers count them down, the
// scoring waits for them in gamma order.
class GammaCountdown {
 public:
  GammaCountdown(size_t gammas, size_t pairs) : left_(gammas, pairs) {}
  void solved(size_t gamma) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      --left_[gamma];
    }
    changed_.notify_all();
  }
  void failed() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      failed_ = true;
    }
    changed_.notify_all();
  }
  // Whether every pair of `gamma` is solved, without waiting.
  bool finished(size_t gamma) {
    std::lock_guard<std::mutex> lock(mutex_);
    return !failed_ && left_[gamma] == 0;
  }
  // False once a solve has failed.
  bool wait_for(size_t gamma) {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] { return failed_ || left_[gamma] == 0; });
    return !failed_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<size_t> left_;
  bool failed_ = false;
};

template <class Value>
std::vector<SmoPairSolution> solve_chain(const PairRows& rows, const PairKernelOf<Value>& kernel,
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
    out.back().seconds = seconds_since(start);
  }
  return out;
}

}  // namespace

std::vector<SmoPairSolution> solve_pair_for_each_C(const PairRows& rows, const PairKernel& kernel,
                                                   const std::vector<double>& ascending_Cs,
                                                   const SolverSettings& settings) {
  return solve_chain(rows, kernel, ascending_Cs, settings);
}
std::vector<SmoPairSolution> solve_pair_for_each_C(const PairRows& rows,
                                                   const PairKernelUnorm16& kernel,
                                                   const std::vector<double>& ascending_Cs,
                                                   const SolverSettings& settings) {
  return solve_chain(rows, kernel, ascending_Cs, settings);
}

SearchOutcome search_hyper_parameters_warm(
    const std::vector<Context*>& contexts, const FeatureSet& train, const ValidationSplit& split,
    const TrainOptions& requested, const std::vector<double>& Cs,
    const std::vector<GammaPolicy>& gammas,
    const std::function<void(size_t, size_t, const SearchResult&)>& progress) {
  if (Cs.empty() || gammas.empty()) throw SvmError("the search needs at least one C and one gamma");
  const TrainOptions base = search_options(requested);
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
  const double standardize_seconds = seconds_since(phase);
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
  int best_unconverged = 0;  // the winner's pairs stopped at the iteration limit
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
  auto upload_held_out = [&](Context& context) {
    return upload_rows(context, split.validation, all_rows(split.validation), standardizer,
                       tile_rows);
  };
  // The scores' own context (see below) uploads the validation rows itself.
  // Across ranks the scores wait for every rank's pairs: they come last.
  const RankShare& ranks = base.ranks;
  // Pairs solved on the backend are solved in a few batches, then scored:
  // no solve runs beside the scores, so they need no context of their own.
  // Across ranks each rank's backend solves its share of the pairs.
  const bool on_backend = pairs_on_backend(contexts, requested);
  const bool scorer_of_its_own =
      !on_backend && contexts.front()->has_host_memory() && !ranks.spread();
  std::optional<DeviceRows> held_out;
  if (!scorer_of_its_own) held_out.emplace(upload_held_out(*contexts.front()));
  const double upload_seconds = seconds_since(phase);
  phase = Clock::now();
  std::vector<KernelSpec> specs;
  for (const GammaPolicy& gamma : gammas) {
    specs.push_back({base.kernel, static_cast<float>(resolve_gamma(gamma, train, split.fit_rows,
                                                                   standardizer, threads))});
  }
  const double gamma_seconds = seconds_since(phase);
  // Every gamma's pairs run as one stream through the workers: the next
  // gamma's first pairs start while the last one's slowest are still solved.
  PairRunInput input = pair_run_input(train, layout, standardizer, specs.front(), base);
  input.specs = specs;
  input.options.progress = nullptr;
  input.resident_rows = resident_rows;
  take_rank_share(input, layout, ranks);
  // Every C's solution (alphas as floats, support rows) and the chain's
  // alphas and gradient.
  input.extra_solver_bytes_per_row = ascending.size() * 16 + 2 * sizeof(double);
  const SolverSettings settings = solver_settings(base);
  // chains[gamma][pair]: the pair's solutions for every C (ascending).
  std::vector<std::vector<std::vector<SmoPairSolution>>> chains(
      gammas.size(), std::vector<std::vector<SmoPairSolution>>(pairs.size()));
  GammaCountdown countdown(gammas.size(), pairs.size());
  const auto search_start = Clock::now();
  double scored_until = 0.0;  // seconds into the search when the last gamma was scored
  double scoring_seconds = 0.0;
  // Gamma g's candidates from their decision values: accuracies, the best so far.
  auto score_gamma = [&](size_t g, const std::vector<std::vector<double>>& decisions) {
    const double now = seconds_since(search_start);
    // The gamma's share of the wall time: since the previous gamma was scored.
    const double seconds = now - scored_until + (g == 0 ? upload_seconds + gamma_seconds : 0.0);
    scored_until = now;
    const SearchResult* best_before = best;
    size_t best_link = 0;
    for (size_t i = 0; i < Cs.size(); ++i) {
      SearchResult& r = grid[i * gammas.size() + g];
      r.candidate = {Cs[i], gammas[g]};
      r.validation_accuracy = accuracy_of(decisions[position[i]], layout, split.validation);
      r.gamma_value = specs[g].gamma;
      r.seconds = seconds / static_cast<double>(Cs.size());
      for (const std::vector<SmoPairSolution>& chain : chains[g]) {
        r.solver_iterations += chain[position[i]].iterations;
        r.solver_seconds += chain[position[i]].seconds;
      }
      if (!best || better_than(r, *best)) {
        best = &r;
        best_link = position[i];
      }
      // The last candidate's progress comes after the search's phases are known.
      if (progress && done + 1 < total) progress(++done, total, r);
    }
    if (best != best_before) {
      // Only the winner's coefficients are kept; its model (a copy of the
      // support vectors, gigabytes at CIFAR-10's size) is assembled once, at the end.
      best_solutions.clear();
      best_unconverged = 0;
      for (const std::vector<SmoPairSolution>& chain : chains[g]) {
        best_solutions.push_back(chain[best_link].solution);
        best_unconverged += chain[best_link].converged ? 0 : 1;
      }
    }
  };
  // Gammas [first, end)'s candidates (all their pairs solved) scored on the
  // validation rows, on `context`, where the class rows and the validation
  // rows are: their decision values in one pass (one product per tile pair
  // for them all, where the backend can), then each gamma's accuracies.
  auto score = [&](size_t first, size_t end, Context& context,
                   const std::vector<DeviceRows>& class_rows, const DeviceRows& validation_rows) {
    const auto scoring_start = Clock::now();
    std::vector<KernelSpec> scored_specs(specs.begin() + static_cast<std::ptrdiff_t>(first),
                                         specs.begin() + static_cast<std::ptrdiff_t>(end));
    std::vector<const Chains*> scored_chains;
    for (size_t g = first; g < end; ++g) scored_chains.push_back(&chains[g]);
    const std::vector<std::vector<std::vector<double>>> all_decisions = validation_decisions(
        context, layout, class_rows, validation_rows, scored_specs, scored_chains);
    scoring_seconds += seconds_since(scoring_start);
    for (size_t g = first; g < end; ++g) score_gamma(g, all_decisions[g - first]);
  };
  // Gammas are scored in order, each once all its pairs are solved. With a
  // backend whose copies have an engine of their own (it offers page-locked
  // host memory), on a context and thread of their own, beside the producer:
  // the producer's kernels are then all the workers wait for. Otherwise on
  // the producer's context, between its kernels when it is free (the
  // producer mostly waits for the workers to free memory), else once every
  // kernel is made, while the workers finish the rest.
  size_t scored = 0;
  auto score_here = [&](size_t g) { score(g, g + 1, *contexts.front(), resident[0], *held_out); };
  std::thread scorer;
  std::exception_ptr scoring_error;
  if (scorer_of_its_own) {
    scorer = std::thread([&] {
      try {
        // Everything the scores need lives on this thread, freed when it ends.
        const Context& like = *contexts.front();
        Context context(like.table(), like.device_index(), like.thread_count(), like.options());
        const std::vector<DeviceRows> class_rows =
            upload_class_rows(context, train, layout, standardizer, tile_rows);
        const DeviceRows validation_rows = upload_held_out(context);
        for (; scored < gammas.size(); ++scored) {
          if (!countdown.wait_for(scored)) return;
          score(scored, scored + 1, context, class_rows, validation_rows);
        }
      } catch (...) {
        scoring_error = std::current_exception();
      }
    });
  } else if (!ranks.spread()) {
    input.between_kernels = [&] {
      while (scored < gammas.size() && countdown.finished(scored)) score_here(scored++);
    };
    input.after_kernels = [&] {
      for (; scored + 1 < gammas.size(); ++scored) {
        if (!countdown.wait_for(scored)) return;
        score_here(scored);
      }
      // The last gamma's pairs are the last solved: scored once the run ends.
    };
  }
  TrainStats stats;
  if (on_backend) {
    DevicePairInput device;
    device.train = &train;
    device.layout = &layout;
    device.standardizer = &standardizer;
    device.specs = specs;
    device.ascending_Cs = ascending;
    device.eps = base.eps;
    device.resident_rows = resident_rows;
    if (input.order_is_share) device.pairs = input.order;
    const std::vector<ClassPair>& solved_pairs = input.order_is_share ? input.order : pairs;
    DevicePairTimes times;
    if (has_pairs_here(input)) {
      std::vector<std::vector<std::vector<SmoPairSolution>>> solved =
          solve_pairs_on_backend(contexts, device, &times);
      for (size_t g = 0; g < gammas.size(); ++g) {
        for (size_t k = 0; k < solved_pairs.size(); ++k) {
          chains[g][pair_index(solved_pairs[k], layout.class_count())] = std::move(solved[g][k]);
        }
      }
    }
    record_backend_pairs(times, static_cast<int>(solved_pairs.size()),
                         static_cast<int>(contexts.size()), stats);
  }
  try {
    if (!on_backend && has_pairs_here(input)) run_class_pairs(
        contexts, input,
        [&](size_t g, const PairRows& rows, PairWorkspace& workspace, const PairDiagonals& diagonal) {
          try {
            const size_t index = pair_index(rows.pair, layout.class_count());
            chains[g][index] = with_smo_pair_kernel(
                rows, workspace, diagonal, settings.kernel_values, [&](const auto& kernel) {
                  return solve_pair_for_each_C(rows, kernel, ascending, settings);
                });
            countdown.solved(g);
            return chains[g][index].back().solution;  // the scheduler's record; the chains count
          } catch (...) {
            countdown.failed();
            throw;
          }
        },
        stats);
  } catch (...) {
    countdown.failed();  // the scorer waits for no gamma that will not come
    if (scorer.joinable()) scorer.join();
    throw;
  }
  if (ranks.spread()) {
    // Every rank gets every pair's chain of every gamma, then scores them all.
    for (size_t g = 0; g < gammas.size(); ++g) {
      std::vector<std::vector<SmoPairSolution>> mine;
      for (const ClassPair& pair : input.order) {
        mine.push_back(std::move(chains[g][pair_index(pair, layout.class_count())]));
      }
      for (std::vector<SmoPairSolution>& chain : share_chains(ranks, mine)) {
        if (chain.size() != ascending.size()) {
          throw SvmError("a rank shared a pair solved for " + std::to_string(chain.size()) +
                         " values of C, not " + std::to_string(ascending.size()));
        }
        const size_t index = pair_index(chain.front().solution.pair, layout.class_count());
        chains[g][index] = std::move(chain);
      }
    }
  }
  if (scorer.joinable()) {
    scorer.join();
    if (scoring_error) std::rethrow_exception(scoring_error);
  } else if (scored < gammas.size()) {
    // What is left (every gamma, when the backend solved the pairs) in one pass.
    score(scored, gammas.size(), *contexts.front(), resident[0], *held_out);
    scored = gammas.size();
  }
  stats.standardize_seconds = standardize_seconds;
  stats.gamma_seconds = gamma_seconds;
  stats.upload_seconds += upload_seconds;
  const double search_seconds = seconds_since(search_start) + upload_seconds + gamma_seconds;
  // The last candidate carries the search's phases.
  SearchResult& last = grid[total - 1];
  last.phases = stats.solved_on_backend
                    ? backend_search_phases(stats, scoring_seconds, search_seconds)
                    : search_phases(stats, scoring_seconds, scorer_of_its_own, search_seconds);
  if (progress) progress(++done, total, last);
  stats.gamma = best->gamma_value;
  stats.unconverged_pairs = best_unconverged;
  stats.seconds = search_seconds;
  outcome.best_stats = stats;
  // Freed before the model's copy of its support vectors is made: with a
  // backend whose tensors live in host memory, both would count at once.
  held_out.reset();
  resident_rows.clear();
  resident.clear();
  outcome.best_model = assemble_model(train, layout, standardizer, std::move(best_solutions),
                                      base.kernel, best->gamma_value, best->candidate.C);
  outcome.best_stats.support_vectors = outcome.best_model.sv_count;
  outcome.results = std::move(grid);
  return outcome;
}

}  // namespace cae::svm
