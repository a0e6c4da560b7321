// The kernel side of the one-vs-one training: one producer thread per backend
// context (one per device of --devices, or several on one device), each with
// every class's rows uploaded to its own context, taking kernel tasks from
// one list in one fixed order and handing finished pairs to the solver
// workers through the PairScheduler.
//
// SMO tasks: each class's diagonal block K(c,c) once (just before the first
// pair that needs it), and per pair only K(a,b); the worker builds K(b,a) by
// transposing. So a training computes k (k+1) / 2 class blocks instead of
// 2 k (k-1) (10 classes: 55 instead of 180), and a pair holds half the
// memory of its dense kernel. libsvm tasks: the pair's whole dense kernel
// (its PRECOMPUTED input needs one matrix), as before.
//
// Which context computes a block does not change its values as long as the
// contexts are of one backend on identical devices (the cpu backend tiles
// its GEMMs independently of the thread count), so the model does not depend
// on the number of contexts.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "plugin/context.hpp"
#include "svm/class_layout.hpp"
#include "svm/kernel_blocks.hpp"
#include "svm/pair_scheduler.hpp"

namespace cae::svm {

struct KernelTask {
  bool diagonal = false;  // K(cls, cls), else the pair's kernel
  int32_t cls = 0;
  ClassPair pair;
  size_t stage = 0;  // which kernel of ProducerInput::specs
};

// Every class's rows of `layout`, standardised, on `context`, in class order.
std::vector<DeviceRows> upload_class_rows(Context& context, const FeatureSet& train,
                                          const ClassLayout& layout,
                                          const Standardizer& standardizer, int64_t tile_rows);

// Host bytes each producer holds to convert diagonal blocks to unorm16: the
// backend computes float32 into them, and only the unorm16 copy is kept, in
// half the memory. Zero unless SMO on unorm16. (A pair's off-diagonal block
// needs none: its workspace holds the float32 block, rewritten in place.)
uint64_t producer_staging_bytes(int64_t largest_class_rows, const SolverSettings& settings);

// The tasks for `order` (the pairs in the order they are solved), of stage 0.
std::vector<KernelTask> kernel_tasks(const std::vector<ClassPair>& order, SolverKind solver);

struct ProducerInput {
  const FeatureSet* train = nullptr;
  const ClassLayout* layout = nullptr;
  const Standardizer* standardizer = nullptr;
  // One kernel per stage: every pair of `order` is computed for each, stage
  // after stage, as one stream of tasks (a stage's diagonal blocks are
  // computed just before its first pair needs them, as in a single stage).
  std::vector<KernelSpec> specs;
  int64_t tile_rows = kDefaultTileRows;
  SolverSettings settings;
  uint64_t extra_solver_bytes_per_row = 0;  // reserved per pair beyond pair_solver_bytes
  std::vector<ClassPair> order;
  // Every class's rows already on each context (one entry per context, in
  // class order), kept by the caller across several runs; empty: each
  // producer uploads them itself and frees them when done.
  std::vector<const std::vector<DeviceRows>*> resident_rows;
  // Called by the first context's producer before each of its tasks and
  // after its last, on its thread, while that context is free: work that
  // needs the context between kernels (a search without a scoring context of
  // its own scores a gamma whose pairs are all solved there, in the time the
  // producer would otherwise spend waiting on the memory cap). What it throws
  // fails the run.
  std::function<void()> between_tasks;
};

// Seconds summed over the producers.
struct ProducerTimes {
  double upload = 0.0;       // class rows to the contexts
  double kernel = 0.0;       // kernel_matrix calls and downloads
  double memory_wait = 0.0;  // blocked on the memory cap
};

// Runs every task of every stage on `contexts` (one thread each, the first on the calling
// thread) and returns when they are all computed and submitted, or after a
// failure, which goes to scheduler.fail(). Device memory (rows, output
// buffers) is freed before returning.
ProducerTimes produce_kernels(const std::vector<Context*>& contexts, const ProducerInput& input,
                              PairScheduler& scheduler);

}  // namespace cae::svm
