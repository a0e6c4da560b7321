// One pass over every class pair of a one-vs-one training: the backend
// computes the kernels on one producer thread per context
// (svm/kernel_producers.hpp) and worker threads solve the pairs under a host
// memory cap (svm/pair_scheduler.hpp). What a worker does with a pair's
// kernel is the caller's: train_ovo solves it for one C, the hyper-parameter
// search (svm/warm_search.hpp) for every C of its list on the same kernel.
#pragma once

#include <functional>
#include <vector>

#include "plugin/context.hpp"
#include "svm/class_layout.hpp"
#include "svm/features.hpp"
#include "svm/kernel_blocks.hpp"
#include "svm/ovo_trainer.hpp"
#include "svm/pair_solver.hpp"

namespace cae::svm {

// Solves one pair whose kernel the workspace holds (as solve_pair reads it);
// `stage` says which of PairRunInput::specs it is. Runs on a worker thread;
// may run for several pairs at once.
using PairSolve = std::function<PairSolution(size_t stage, const PairRows& rows,
                                             PairWorkspace& workspace,
                                             const PairDiagonals& diagonal)>;

struct PairRunInput {
  const FeatureSet* train = nullptr;
  const ClassLayout* layout = nullptr;
  const Standardizer* standardizer = nullptr;
  // The kernels: every pair is solved once per entry (a stage), stage after
  // stage in one stream, so the workers go on from one stage's last pairs to
  // the next stage's first without waiting for the slowest pair.
  std::vector<KernelSpec> specs;
  // options.C is the solver setting; threads, memory cap, tile rows,
  // verbosity and progress come from here too.
  TrainOptions options;
  // Host bytes `solve` allocates per row beyond pair_solver_bytes (0 for one C).
  uint64_t extra_solver_bytes_per_row = 0;
  // The order the pairs start in (every pair once); empty: largest first.
  // It changes no solution, only how well the workers are kept busy.
  std::vector<ClassPair> order;
  // True: `order` holds only this rank's share of the pairs (each at most
  // once, at least one; svm/pair_share.hpp), not every pair.
  bool order_is_share = false;
  // As ProducerInput::resident_rows: the class rows already on each context.
  std::vector<const std::vector<DeviceRows>*> resident_rows;
  // Called on the calling thread once every kernel is computed and handed to
  // the workers, while they still solve: the first context is free again.
  // (The search scores each gamma's candidates there as the gamma finishes.)
  // It must return once a solve has failed.
  std::function<void()> after_kernels;
  // As ProducerInput::between_tasks: on the first context, between its kernels.
  std::function<void()> between_kernels;
};

// The input for these rows, kernel (one stage) and options.
PairRunInput pair_run_input(const FeatureSet& train, const ClassLayout& layout,
                            const Standardizer& standardizer, const KernelSpec& spec,
                            const TrainOptions& options);

// Runs `solve` on every pair of every stage (in input.order, or largest
// first) and returns the solutions in the order they finished. Fills stats' phase times, pair and thread counts,
// memory cap and peaks. Throws SvmError (a pair larger than the cap),
// BackendError, or what a worker threw.
std::vector<PairSolution> run_class_pairs(const std::vector<Context*>& contexts,
                                          const PairRunInput& input, const PairSolve& solve,
                                          TrainStats& stats);

// The solver settings of `options`, kernel values auto taken as float32.
// Throws SvmError for unorm16 kernel values with a kernel other than RBF.
SolverSettings solver_settings(const TrainOptions& options);

}  // namespace cae::svm
