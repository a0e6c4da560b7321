#include "svm/ovo_trainer.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <thread>

#include "svm/class_layout.hpp"
#include "svm/kernel_blocks.hpp"
#include "svm/pair_scheduler.hpp"
#include "svm/parallel.hpp"
#include "svm/svm_error.hpp"

namespace cae::svm {

namespace {

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
  PairScheduler::Job job;
  while (scheduler.next(job)) {
    try {
      PairSolution solution = solve_pair(job.rows, *job.workspace, settings);
      scheduler.complete(std::move(solution), std::move(job));
    } catch (...) {
      scheduler.fail(std::current_exception());
      return;
    }
  }
}

// Writes the kernel of the pair's rows (first class, then second) into the
// job's workspace as four blocks of one row-major [l, l] matrix.
void compute_pair_kernel(KernelBlocks& blocks, const std::vector<DeviceRows>& class_rows,
                         PairScheduler::Job& job) {
  const int64_t l = job.rows.size();
  float* kernel = job.workspace->kernel(l);
  const int32_t classes[2] = {job.rows.pair.first, job.rows.pair.second};
  for (int s = 0; s < 2; ++s) {
    for (int t = 0; t < 2; ++t) {
      float* corner = kernel + (s ? job.rows.count(0) * l : 0) + (t ? job.rows.count(0) : 0);
      blocks.compute(class_rows[static_cast<size_t>(classes[s])],
                     class_rows[static_cast<size_t>(classes[t])], corner, l);
    }
  }
}

}  // namespace

uint64_t default_memory_cap(SolverKind solver, int workers, uint64_t largest_pair_bytes) {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGE_SIZE);
  const uint64_t physical =
      pages > 0 && page_size > 0 ? static_cast<uint64_t>(pages) * page_size : 48 * kGiB;
  if (solver == SolverKind::Libsvm) return std::min<uint64_t>(24 * kGiB, physical / 2);
  const uint64_t wanted = static_cast<uint64_t>(std::max(workers, 1) + 2) * largest_pair_bytes;
  const uint64_t bounded = std::max(2 * largest_pair_bytes, std::min<uint64_t>(wanted, 4 * kGiB));
  return std::min<uint64_t>(physical / 2, bounded);
}

OvoModel train_ovo(Context& context, const FeatureSet& train, const TrainOptions& options,
                   TrainStats* stats) {
  const auto start = std::chrono::steady_clock::now();
  check_options(options);
  const ClassLayout layout = ClassLayout::of(train);
  const int threads = resolve_thread_count(options.threads);
  const Standardizer standardizer =
      options.standardize ? Standardizer::fit(train, threads) : Standardizer();
  const KernelSpec spec{options.kernel, static_cast<float>(resolve_gamma(options.gamma, train,
                                                                         standardizer, threads))};
  const int64_t tile_rows = options.tile_rows ? options.tile_rows : kDefaultTileRows;
  const SolverSettings settings{options.C, options.eps, options.cache_mb, options.shrinking,
                                options.solver};

  const std::vector<ClassPair> order = pairs_largest_first(layout);
  const int workers = std::min<int>(threads, static_cast<int>(order.size()));
  const int64_t largest = static_cast<int64_t>(layout.rows[order[0].first].size() +
                                               layout.rows[order[0].second].size());
  const uint64_t largest_bytes =
      PairWorkspace::bytes_for(largest, options.solver) + pair_solver_bytes(largest, settings);
  const uint64_t cap = options.memory_cap_bytes
                           ? options.memory_cap_bytes
                           : default_memory_cap(options.solver, workers, largest_bytes);
  if (largest_bytes > cap) {
    throw SvmError("SVM memory cap of " + gib_text(cap) +
                   " is too small: the largest class pair (" + std::to_string(largest) +
                   " rows) needs about " + gib_text(largest_bytes));
  }

  // Each class's rows go to the device once; every pair's kernel is built
  // from them. Freed (with the kernel output buffer) when training ends.
  std::vector<DeviceRows> class_rows;
  for (const std::vector<int64_t>& rows : layout.rows) {
    class_rows.push_back(upload_rows(context, train, rows, standardizer, tile_rows));
  }
  KernelBlocks blocks(context, spec);

  configure_libsvm_output(options.verbose);
  PairScheduler scheduler(cap, static_cast<int>(order.size()), options.solver, options.progress);
  std::vector<std::thread> pool;
  // This thread is the only one that uses the backend context.
  try {
    for (int w = 0; w < workers; ++w) pool.emplace_back(run_worker, std::ref(scheduler), settings);
    for (const ClassPair& pair : order) {
      PairScheduler::Job job;
      job.rows.pair = pair;
      job.rows.rows[0] = &layout.rows[static_cast<size_t>(pair.first)];
      job.rows.rows[1] = &layout.rows[static_cast<size_t>(pair.second)];
      job.solver_bytes = pair_solver_bytes(job.rows.size(), settings);
      if (!scheduler.reserve(job)) break;
      compute_pair_kernel(blocks, class_rows, job);
      scheduler.submit(std::move(job));
    }
  } catch (...) {
    scheduler.fail(std::current_exception());
  }
  scheduler.close();
  scheduler.wait_for_workers();
  for (std::thread& thread : pool) thread.join();
  scheduler.release_workspaces();
  blocks.release();
  class_rows.clear();
  scheduler.rethrow_if_failed();

  std::vector<PairSolution> solutions = scheduler.take_solutions();
  const int unconverged = static_cast<int>(std::count_if(
      solutions.begin(), solutions.end(), [](const PairSolution& s) { return !s.converged; }));
  OvoModel model = assemble_model(train, layout, standardizer, std::move(solutions),
                                  options.kernel, spec.gamma, options.C);
  if (stats) {
    stats->pairs = static_cast<int>(order.size());
    stats->threads = workers;
    stats->gamma = spec.gamma;
    stats->memory_cap_bytes = cap;
    stats->peak_reserved_bytes = scheduler.peak_bytes();
    stats->peak_pairs_in_flight = scheduler.peak_pairs_in_flight();
    stats->support_vectors = model.sv_count;
    stats->unconverged_pairs = unconverged;
    stats->seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  return model;
}

}  // namespace cae::svm
