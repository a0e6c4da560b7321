// Trains the one-vs-one SVM: the backend computes every pair's kernel on the
// calling thread, the chosen solver (SMO or libsvm) solves the pairs on worker
// threads under a host memory cap.
#pragma once

#include <cstdint>
#include <functional>

#include "plugin/context.hpp"
#include "svm/features.hpp"
#include "svm/kernel_params.hpp"
#include "svm/ovo_model.hpp"
#include "svm/solver_kind.hpp"

namespace cae::svm {

struct TrainOptions {
  double C = 1.0;
  KernelKind kernel = KernelKind::Rbf;
  GammaPolicy gamma;              // "scale" by default
  bool standardize = true;        // fit a Standardizer on the training set
  int threads = 0;                // solver workers; 0: hardware threads
  uint64_t memory_cap_bytes = 0;  // 0: default_memory_cap()
  SolverKind solver = SolverKind::Smo;
  double cache_mb = 100.0;  // libsvm's cache per pair
  double eps = 1e-3;
  bool shrinking = true;
  int64_t tile_rows = 0;  // device tile rows; 0: kDefaultTileRows
  bool verbose = false;   // let libsvm print
  // Called on the calling thread as pairs finish (done of total).
  std::function<void(int done, int total)> progress;
};

struct TrainStats {
  int pairs = 0;
  int threads = 0;
  float gamma = 0.0f;
  uint64_t memory_cap_bytes = 0;
  uint64_t peak_reserved_bytes = 0;  // most bytes the pairs in flight held at once
  int peak_pairs_in_flight = 0;
  int64_t support_vectors = 0;  // size of the union
  double seconds = 0.0;
  int unconverged_pairs = 0;  // pairs whose solver stopped at its iteration limit
};

// libsvm: min(24 GiB, half the physical memory), as before SMO existed.
// SMO: room for every worker's pair, one being computed and one queued
// ((workers + 2) x the largest pair), but no more than 4 GiB unless two pairs
// need more, and at most half the physical memory: its pairs are small (4
// bytes per kernel entry), ten 10,000-row pairs in flight keep 16 cores busy
// (the backend computes the kernels one pair at a time), and a larger cap
// would only let the coordinator queue kernels ahead of the workers while the
// whole pipeline should fit a few GiB.
uint64_t default_memory_cap(SolverKind solver, int workers, uint64_t largest_pair_bytes);

// Throws SvmError (bad options, a pair that needs more than the cap),
// BackendError, or what libsvm's worker threads threw.
OvoModel train_ovo(Context& context, const FeatureSet& train, const TrainOptions& options,
                   TrainStats* stats = nullptr);

}  // namespace cae::svm
