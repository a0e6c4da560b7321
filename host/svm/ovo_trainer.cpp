#include "svm/ovo_trainer.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <thread>

#include "svm/class_layout.hpp"
#include "svm/kernel_blocks.hpp"
#include "svm/kernel_producers.hpp"
#include "svm/pair_scheduler.hpp"
#include "common/parallel.hpp"
#include "svm/svm_error.hpp"

namespace cae::svm {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

constexpr uint64_t kGiB = uint64_t{1} << 30;

std::string gib_text(uint64_t bytes) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.2f GiB", static_cast<double>(bytes) / kGiB);
  return buffer;
}

void check_options(const TrainOptions& options) {
  if (!(options.C > 0.0) || !std::isfinite(options.C)) {
    throw SvmError("SVM C must be a positive number");
  }
  if (!(options.eps > 0.0) || !(options.cache_mb > 0.0) || options.tile_rows < 0) {
    throw SvmError("SVM eps, cache size and tile rows must be positive");
  }
}

// Largest pairs first: they take longest, and starting them early keeps the
// workers busy to the end.
std::vector<ClassPair> pairs_largest_first(const ClassLayout& layout) {
  std::vector<ClassPair> pairs = class_pairs(layout.class_count());
  auto size = [&](const ClassPair& p) {
    return layout.rows[static_cast<size_t>(p.first)].size() +
           layout.rows[static_cast<size_t>(p.second)].size();
  };
  std::stable_sort(pairs.begin(), pairs.end(),
                   [&](const ClassPair& a, const ClassPair& b) { return size(a) > size(b); });
  return pairs;
}

void run_worker(PairScheduler& scheduler, const SolverSettings& settings) {
  for (;;) {
    PairScheduler::Job job;  // fresh each time: nothing of the last pair lingers in it
    if (!scheduler.next(job)) return;
    try {
      const float* diagonal[2] = {job.diagonal[0] ? job.diagonal[0]->values() : nullptr,
                                  job.diagonal[1] ? job.diagonal[1]->values() : nullptr};
      PairSolution solution = solve_pair(job.rows, *job.workspace, settings, diagonal);
      scheduler.complete(std::move(solution), std::move(job));
    } catch (...) {
      scheduler.fail(std::current_exception());
      return;
    }
  }
}

// Bytes of every class's diagonal block: the SMO path may hold them all at
// once (whatever the pair order, when the first class has had all its pairs
// every other class has started and still has pairs to come).
uint64_t all_diagonal_bytes(const ClassLayout& layout, SolverKind solver) {
  if (solver != SolverKind::Smo) return 0;
  uint64_t bytes = 0;
  for (const std::vector<int64_t>& rows : layout.rows) {
    bytes += diagonal_block_bytes(static_cast<int64_t>(rows.size()));
  }
  return bytes;
}

}  // namespace

uint64_t default_memory_cap(SolverKind solver, int workers, uint64_t largest_pair_bytes,
                            uint64_t shared_bytes) {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGE_SIZE);
  const uint64_t physical =
      pages > 0 && page_size > 0 ? static_cast<uint64_t>(pages) * page_size : 48 * kGiB;
  if (solver == SolverKind::Libsvm) return std::min<uint64_t>(24 * kGiB, physical / 2);
  const uint64_t wanted = static_cast<uint64_t>(std::max(workers, 1) + 2) * largest_pair_bytes;
  const uint64_t pairs = std::max(2 * largest_pair_bytes, std::min<uint64_t>(wanted, 2 * kGiB));
  return std::min<uint64_t>(physical / 2, shared_bytes + pairs);
}

OvoModel train_ovo(Context& context, const FeatureSet& train, const TrainOptions& options,
                   TrainStats* stats) {
  return train_ovo(std::vector<Context*>{&context}, train, options, stats);
}

OvoModel train_ovo(const std::vector<Context*>& contexts, const FeatureSet& train,
                   const TrainOptions& options, TrainStats* stats) {
  train.check("SVM training set", true);
  return train_ovo(contexts, train, all_rows(train), options, stats);
}

OvoModel train_ovo(const std::vector<Context*>& contexts, const FeatureSet& train,
                   const std::vector<int64_t>& rows, const TrainOptions& options,
                   TrainStats* stats) {
  const auto start = Clock::now();
  TrainStats timing;
  check_options(options);
  if (contexts.empty()) throw SvmError("the SVM needs at least one backend context");
  const ClassLayout layout = ClassLayout::of(train, rows);
  const int threads = resolve_thread_count(options.threads);
  auto phase = Clock::now();
  const Standardizer standardizer =
      options.standardize ? Standardizer::fit(train, rows, threads) : Standardizer();
  timing.standardize_seconds = seconds_since(phase);
  phase = Clock::now();
  const KernelSpec spec{options.kernel, static_cast<float>(resolve_gamma(options.gamma, train, rows,
                                                                         standardizer, threads))};
  timing.gamma_seconds = seconds_since(phase);
  const SolverSettings settings{options.C, options.eps, options.cache_mb, options.shrinking,
                                options.solver};

  const std::vector<ClassPair> order = pairs_largest_first(layout);
  const int workers = std::min<int>(threads, static_cast<int>(order.size()));
  const int64_t largest = static_cast<int64_t>(layout.rows[order[0].first].size() +
                                               layout.rows[order[0].second].size());
  const uint64_t largest_bytes =
      PairWorkspace::bytes_for(largest, options.solver) + pair_solver_bytes(largest, settings);
  const uint64_t shared_bytes = all_diagonal_bytes(layout, options.solver);
  const uint64_t cap = options.memory_cap_bytes ? options.memory_cap_bytes
                                                : default_memory_cap(options.solver, workers,
                                                                     largest_bytes, shared_bytes);
  if (largest_bytes + shared_bytes > cap) {
    throw SvmError(
        "SVM memory cap of " + gib_text(cap) + " is too small: the largest class pair (" +
        std::to_string(largest) + " rows) needs about " + gib_text(largest_bytes) +
        (shared_bytes
             ? " next to the classes' diagonal kernel blocks (" + gib_text(shared_bytes) + ")"
             : std::string()));
  }

  configure_libsvm_output(options.verbose);
  PairScheduler scheduler(cap, static_cast<int>(order.size()), options.solver, options.progress);
  ProducerInput input;
  input.train = &train;
  input.layout = &layout;
  input.standardizer = &standardizer;
  input.spec = spec;
  input.tile_rows = options.tile_rows ? options.tile_rows : kDefaultTileRows;
  input.settings = settings;
  input.order = order;
  std::vector<std::thread> pool;
  try {
    for (int w = 0; w < workers; ++w) pool.emplace_back(run_worker, std::ref(scheduler), settings);
    const ProducerTimes times = produce_kernels(contexts, input, scheduler);
    timing.upload_seconds = times.upload;
    timing.kernel_seconds = times.kernel;
    timing.memory_wait_seconds = times.memory_wait;
  } catch (...) {
    scheduler.fail(std::current_exception());
  }
  scheduler.close();
  phase = Clock::now();
  scheduler.wait_for_workers();
  timing.drain_seconds = seconds_since(phase);
  for (std::thread& thread : pool) thread.join();
  scheduler.release_workspaces();
  scheduler.rethrow_if_failed();

  std::vector<PairSolution> solutions = scheduler.take_solutions();
  const int unconverged = static_cast<int>(std::count_if(
      solutions.begin(), solutions.end(), [](const PairSolution& s) { return !s.converged; }));
  OvoModel model = assemble_model(train, layout, standardizer, std::move(solutions), options.kernel,
                                  spec.gamma, options.C);
  if (stats) {
    *stats = timing;
    stats->producers = static_cast<int>(contexts.size());
    stats->pairs = static_cast<int>(order.size());
    stats->threads = workers;
    stats->gamma = spec.gamma;
    stats->memory_cap_bytes = cap;
    stats->peak_reserved_bytes = scheduler.peak_bytes();
    stats->peak_pairs_in_flight = scheduler.peak_pairs_in_flight();
    stats->support_vectors = model.sv_count;
    stats->unconverged_pairs = unconverged;
    stats->seconds = seconds_since(start);
  }
  return model;
}

}  // namespace cae::svm
