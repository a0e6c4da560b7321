#include "svm/ovo_trainer.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>

#include "common/parallel.hpp"
#include "svm/class_layout.hpp"
#include "svm/device_pairs.hpp"
#include "svm/diagonal_blocks.hpp"
#include "svm/elapsed_seconds.hpp"
#include "svm/kernel_blocks.hpp"
#include "svm/kernel_producers.hpp"
#include "svm/pair_run.hpp"
#include "svm/pair_share.hpp"
#include "svm/svm_error.hpp"

namespace cae::svm {

namespace {

using Clock = std::chrono::steady_clock;

constexpr uint64_t kGiB = uint64_t{1} << 30;

void check_options(const TrainOptions& options) {
  if (!(options.C > 0.0) || !std::isfinite(options.C)) {
    throw SvmError("SVM C must be a positive number");
  }
  if (!(options.eps > 0.0) || !(options.cache_mb > 0.0) || options.tile_rows < 0) {
    throw SvmError("SVM eps, cache size and tile rows must be positive");
  }
}

}  // namespace

namespace {

// The SMO cap before its half-the-RAM limit.
uint64_t smo_pair_bytes(int workers, uint64_t largest_pair_bytes, uint64_t shared_bytes) {
  const uint64_t wanted = static_cast<uint64_t>(std::max(workers, 1) + 2) * largest_pair_bytes;
  const uint64_t pairs = std::max(2 * largest_pair_bytes, std::min<uint64_t>(wanted, 2 * kGiB));
  return shared_bytes + pairs;
}

}  // namespace

uint64_t default_memory_cap(SolverKind solver, int workers, uint64_t largest_pair_bytes,
                            uint64_t shared_bytes) {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGE_SIZE);
  const uint64_t physical =
      pages > 0 && page_size > 0 ? static_cast<uint64_t>(pages) * page_size : 48 * kGiB;
  if (solver == SolverKind::Libsvm) return std::min<uint64_t>(24 * kGiB, physical / 2);
  return std::min<uint64_t>(physical / 2,
                            smo_pair_bytes(workers, largest_pair_bytes, shared_bytes));
}

uint64_t kernel_svm_host_bytes(const std::vector<int64_t>& class_rows, int64_t dim,
                               const TrainOptions& options) {
  std::vector<int64_t> sizes = class_rows;
  std::sort(sizes.begin(), sizes.end(), std::greater<int64_t>());
  if (sizes.size() < 2) return 0;
  const int64_t classes = static_cast<int64_t>(sizes.size());
  const int workers = static_cast<int>(std::min<int64_t>(resolve_thread_count(options.threads),
                                                         classes * (classes - 1) / 2));
  const int64_t largest = sizes[0] + sizes[1];
  const SolverSettings settings = solver_settings(options);
  const uint64_t largest_bytes =
      PairWorkspace::bytes_for(largest, options.solver, settings.kernel_values) +
      pair_solver_bytes(largest, settings);
  uint64_t rows = 0;
  uint64_t shared = producer_staging_bytes(sizes[0], settings);  // one producer's
  for (const int64_t n : sizes) {
    rows += static_cast<uint64_t>(n);
    if (options.solver == SolverKind::Smo) shared += diagonal_block_bytes(n, settings.kernel_values);
  }
  const uint64_t kernels = options.solver == SolverKind::Smo
                               ? smo_pair_bytes(workers, largest_bytes, shared)
                               : static_cast<uint64_t>(workers) * largest_bytes;
  return kernels + rows * static_cast<uint64_t>(dim) * sizeof(float);
}

bool pairs_on_backend(const std::vector<Context*>& contexts, const TrainOptions& options) {
  if (options.solver_place == SolverPlace::Host) return false;
  const bool every_context_solves =
      !contexts.empty() && std::all_of(contexts.begin(), contexts.end(), [](const Context* c) {
        return backend_solves_pairs(*c);
      });
  if (options.solver_place == SolverPlace::Backend) {
    if (options.solver != SolverKind::Smo) {
      throw SvmError("the SVM's solver on the backend is SMO: --svm-on backend needs --svm-solver smo");
    }
    if (options.kernel_values == KernelValues::Unorm16) {
      throw SvmError("the backend's SMO reads the float32 kernel it computed: --svm-on backend "
                     "does not take --svm-kernel-values unorm16");
    }
    if (!every_context_solves) {
      throw SvmError("--svm-on backend: the " +
                     (contexts.empty() ? std::string("selected") : contexts.front()->backend_name()) +
                     " backend does not solve the SVM's dual problems (svm_dual_solve, ABI 1.8)");
    }
    return true;
  }
  return options.solver == SolverKind::Smo && options.kernel_values != KernelValues::Unorm16 &&
         every_context_solves &&
         std::all_of(contexts.begin(), contexts.end(),
                     [](const Context* c) { return c->has_host_memory(); });
}

void record_backend_pairs(const DevicePairTimes& times, int pairs, int contexts,
                          TrainStats& stats) {
  stats.solved_on_backend = true;
  stats.pairs = pairs;
  stats.producers = contexts;
  stats.upload_seconds = times.upload_seconds;
  stats.kernel_seconds = times.kernel_seconds;
  stats.solve_seconds = times.solve_seconds;
  stats.peak_pairs_in_flight = times.largest_batch;
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
  PairRunInput input = pair_run_input(train, layout, standardizer, spec, options);
  const SolverSettings settings = solver_settings(options);
  const RankShare& ranks = options.ranks;
  take_rank_share(input, layout, ranks);
  std::vector<PairSolution> solutions;
  if (has_pairs_here(input) && pairs_on_backend(contexts, options)) {
    DevicePairInput device;
    device.train = &train;
    device.layout = &layout;
    device.standardizer = &standardizer;
    device.specs = {spec};
    device.ascending_Cs = {options.C};
    device.eps = options.eps;
    if (input.order_is_share) device.pairs = input.order;
    device.progress = options.progress;
    DevicePairTimes times;
    auto solved = solve_pairs_on_backend(contexts, device, &times);
    for (std::vector<SmoPairSolution>& chain : solved.front()) {
      solutions.push_back(std::move(chain.front().solution));
    }
    record_backend_pairs(times, static_cast<int>(solutions.size()),
                         static_cast<int>(contexts.size()), timing);
  } else if (has_pairs_here(input)) {
    solutions = run_class_pairs(
        contexts, input,
        [&settings](size_t, const PairRows& pair, PairWorkspace& workspace,
                    const PairDiagonals& diagonal) {
          return solve_pair(pair, workspace, settings, diagonal);
        },
        timing);
  }
  // Every rank gets every pair's solution (a single process has them all).
  solutions = share_solutions(ranks, solutions);
  const int unconverged = static_cast<int>(std::count_if(
      solutions.begin(), solutions.end(), [](const PairSolution& s) { return !s.converged; }));
  OvoModel model = assemble_model(train, layout, standardizer, std::move(solutions), options.kernel,
                                  spec.gamma, options.C);
  if (stats) {
    *stats = timing;
    stats->gamma = spec.gamma;
    stats->support_vectors = model.sv_count;
    stats->unconverged_pairs = unconverged;
    stats->seconds = seconds_since(start);
  }
  return model;
}

}  // namespace cae::svm
