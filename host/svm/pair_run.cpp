#include "svm/pair_run.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <thread>

#include "common/parallel.hpp"
#include "svm/elapsed_seconds.hpp"
#include "svm/kernel_producers.hpp"
#include "svm/pair_scheduler.hpp"
#include "svm/svm_error.hpp"

namespace cae::svm {

namespace {

using Clock = std::chrono::steady_clock;

std::string gib_text(uint64_t bytes) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.2f GiB", static_cast<double>(bytes) / (1 << 30));
  return buffer;
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

// Every pair once, or with `share` each at most once and at least one.
bool is_every_pair_once(const std::vector<ClassPair>& order, int32_t classes, bool share) {
  std::vector<char> seen(static_cast<size_t>(classes) * static_cast<size_t>(classes), 0);
  for (const ClassPair& p : order) {
    if (p.first < 0 || p.first >= p.second || p.second >= classes) return false;
    char& mark = seen[static_cast<size_t>(p.first) * static_cast<size_t>(classes) +
                      static_cast<size_t>(p.second)];
    if (mark) return false;
    mark = 1;
  }
  return share ? !order.empty() : order.size() == class_pairs(classes).size();
}

void run_worker(PairScheduler& scheduler, const PairSolve& solve) {
  for (;;) {
    PairScheduler::Job job;  // fresh each time: nothing of the last pair lingers in it
    if (!scheduler.next(job)) return;
    try {
      PairDiagonals diagonal;
      for (int side = 0; side < 2; ++side) {
        if (!job.diagonal[side]) continue;
        diagonal.float32[side] = job.diagonal[side]->float32();
        diagonal.unorm16[side] = job.diagonal[side]->unorm16();
      }
      PairSolution solution = solve(job.stage, job.rows, *job.workspace, diagonal);
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
uint64_t all_diagonal_bytes(const ClassLayout& layout, const SolverSettings& settings) {
  if (settings.solver != SolverKind::Smo) return 0;
  uint64_t bytes = 0;
  for (const std::vector<int64_t>& rows : layout.rows) {
    bytes += diagonal_block_bytes(static_cast<int64_t>(rows.size()), settings.kernel_values);
  }
  return bytes;
}

}  // namespace

PairRunInput pair_run_input(const FeatureSet& train, const ClassLayout& layout,
                            const Standardizer& standardizer, const KernelSpec& spec,
                            const TrainOptions& options) {
  PairRunInput input;
  input.train = &train;
  input.layout = &layout;
  input.standardizer = &standardizer;
  input.specs = {spec};
  input.options = options;
  return input;
}

SolverSettings solver_settings(const TrainOptions& options) {
  SolverSettings settings{options.C, options.eps, options.cache_mb, options.shrinking,
                          options.solver, KernelValues::Float32};
  if (options.kernel_values == KernelValues::Unorm16) {
    if (options.kernel != KernelKind::Rbf) {
      throw SvmError("unorm16 kernel values need the rbf kernel (its values lie in [0, 1]); the " +
                     std::string(kernel_kind_name(options.kernel)) + " kernel's do not");
    }
    settings.kernel_values = KernelValues::Unorm16;
  }
  return settings;
}

std::vector<PairSolution> run_class_pairs(const std::vector<Context*>& contexts,
                                          const PairRunInput& in, const PairSolve& solve,
                                          TrainStats& stats) {
  const TrainOptions& options = in.options;
  const ClassLayout& layout = *in.layout;
  const SolverSettings settings = solver_settings(options);
  const std::vector<ClassPair> order = in.order.empty() ? pairs_largest_first(layout) : in.order;
  if (!is_every_pair_once(order, layout.class_count(), in.order_is_share)) {
    throw SvmError("the class pair order must name " +
                   std::string(in.order_is_share ? "some pairs" : "every pair") + " of " +
                   std::to_string(layout.class_count()) + " classes once");
  }
  const int workers =
      std::min<int>(resolve_thread_count(options.threads), static_cast<int>(order.size()));
  const std::vector<ClassPair> by_size = pairs_largest_first(layout);
  const int64_t largest = static_cast<int64_t>(layout.rows[by_size[0].first].size() +
                                               layout.rows[by_size[0].second].size());
  const uint64_t largest_bytes =
      PairWorkspace::bytes_for(largest, options.solver, settings.kernel_values) +
      pair_solver_bytes(largest, settings) +
      in.extra_solver_bytes_per_row * static_cast<uint64_t>(largest);
  const uint64_t staging_bytes =
      contexts.size() * producer_staging_bytes(layout.largest_class_rows(), settings);
  const uint64_t shared_bytes = all_diagonal_bytes(layout, settings) + staging_bytes;
  const uint64_t cap = options.memory_cap_bytes ? options.memory_cap_bytes
                                                : default_memory_cap(options.solver, workers,
                                                                     largest_bytes, shared_bytes);
  if (largest_bytes + shared_bytes > cap) {
    throw SvmError(
        "SVM memory cap of " + gib_text(cap) + " is too small: the largest class pair (" +
        std::to_string(largest) + " rows) needs about " + gib_text(largest_bytes) +
        (shared_bytes
             ? " next to the classes' diagonal kernel blocks" +
                   std::string(staging_bytes ? " and the producers' unorm16 conversion buffers"
                                             : "") +
                   " (" + gib_text(shared_bytes) + ")"
             : std::string()));
  }

  configure_libsvm_output(options.verbose);
  const int jobs = static_cast<int>(order.size() * in.specs.size());
  PairScheduler scheduler(cap, jobs, options.solver, options.progress, settings.kernel_values);
  ProducerInput input;
  input.train = in.train;
  input.layout = in.layout;
  input.standardizer = in.standardizer;
  input.specs = in.specs;
  input.tile_rows = options.tile_rows ? options.tile_rows : kDefaultTileRows;
  input.settings = settings;
  input.extra_solver_bytes_per_row = in.extra_solver_bytes_per_row;
  input.order = order;
  input.resident_rows = in.resident_rows;
  input.between_tasks = in.between_kernels;
  std::vector<std::thread> pool;
  try {
    for (int w = 0; w < workers; ++w) pool.emplace_back(run_worker, std::ref(scheduler), solve);
    const ProducerTimes times = produce_kernels(contexts, input, scheduler);
    stats.upload_seconds = times.upload;
    stats.kernel_seconds = times.kernel;
    stats.memory_wait_seconds = times.memory_wait;
    if (in.after_kernels && !scheduler.failed()) in.after_kernels();
  } catch (...) {
    scheduler.fail(std::current_exception());
  }
  scheduler.close();
  const auto drain = Clock::now();
  scheduler.wait_for_workers();
  stats.drain_seconds = seconds_since(drain);
  for (std::thread& thread : pool) thread.join();
  scheduler.release_workspaces();
  scheduler.rethrow_if_failed();

  stats.producers = static_cast<int>(contexts.size());
  stats.pairs = jobs;
  stats.threads = workers;
  stats.memory_cap_bytes = cap;
  stats.peak_reserved_bytes = scheduler.peak_bytes();
  stats.peak_pairs_in_flight = scheduler.peak_pairs_in_flight();
  return scheduler.take_solutions();
}

}  // namespace cae::svm
