// Trains the one-vs-one SVM: the backend computes the kernels on one producer
// thread per context (svm/kernel_producers.hpp), the chosen solver (SMO or
// libsvm) solves the pairs on worker threads under a host memory cap.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "plugin/context.hpp"
#include "svm/device_pairs.hpp"
#include "svm/features.hpp"
#include "svm/kernel_params.hpp"
#include "svm/kernel_values.hpp"
#include "svm/ovo_model.hpp"
#include "svm/rank_share.hpp"
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
  // How SMO holds the kernel (svm/kernel_values.hpp); auto: unorm16 for a
  // search's candidates with the RBF kernel, float32 for one training.
  KernelValues kernel_values = KernelValues::Auto;
  // Where SMO runs (solver_kind.hpp); resolved by pairs_on_backend.
  SolverPlace solver_place = SolverPlace::Auto;
  int64_t tile_rows = 0;  // device tile rows; 0: kDefaultTileRows
  bool verbose = false;   // let libsvm print
  // Called as pairs finish (done of total), one call at a time, from the
  // calling thread or a producer thread.
  std::function<void(int done, int total)> progress;
  // Under a launcher: the ranks the class pairs are spread over; every rank
  // gets the whole model (svm/pair_share.hpp).
  RankShare ranks;
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
  // Where `seconds` went, to tell what bounds the SVM time. Producer phases
  // are summed over the producer threads (one per backend context), so with
  // several contexts they may add up to more than the wall time.
  int producers = 0;                 // backend contexts computing kernels
  double standardize_seconds = 0.0;  // fitting the Standardizer (host)
  double gamma_seconds = 0.0;        // resolving the gamma policy (host)
  double upload_seconds = 0.0;       // class rows to the device(s), standardised on the way
  double kernel_seconds = 0.0;       // kernel_matrix calls and their downloads
  double memory_wait_seconds = 0.0;  // producers blocked on the memory cap (waiting for workers)
  double drain_seconds = 0.0;        // after the last kernel, waiting for the workers to finish
  // The pairs solved on the backend (svm/device_pairs.hpp): then
  // kernel_seconds is the kernels' time there, solve_seconds the solver's,
  // and the host's worker and memory-cap figures are unused.
  bool solved_on_backend = false;
  double solve_seconds = 0.0;
};

// Whether `options` solve the pairs on the backend of `contexts`
// (SolverPlace: auto decides here). Throws SvmError when backend is asked
// for and cannot be had: another solver than smo, unorm16 kernel values
// (the backend reads the float32 kernel it computed), or a backend without
// svm_dual_solve.
bool pairs_on_backend(const std::vector<Context*>& contexts, const TrainOptions& options);

// Records in `stats` that `pairs` pairs were solved on the backend of
// `contexts` contexts, taking `times`.
void record_backend_pairs(const DevicePairTimes& times, int pairs, int contexts, TrainStats& stats);

// libsvm: min(24 GiB, half the physical memory), as before SMO existed.
// SMO: the classes' diagonal kernel blocks (`shared_bytes`, all of which may
// be live at once) plus room for every worker's pair, one being computed and
// one queued ((workers + 2) x the largest pair), but no more than 2 GiB of
// pairs unless two pairs need more, and at most half the physical memory: its
// pairs are small (2 n_a n_b floats, the off-diagonal blocks only), and a
// larger cap would only let the producers queue kernels ahead of the workers
// while the whole pipeline should fit 6 GiB.
uint64_t default_memory_cap(SolverKind solver, int workers, uint64_t largest_pair_bytes,
                            uint64_t shared_bytes = 0);

// Host bytes a training on classes of `class_rows` rows of `dim` features
// holds at its peak besides the features themselves: the class-pair kernels
// the memory cap above lets it hold (without its half-the-RAM limit) and the
// model's support vectors (at most every row). It grows as rows^2: what
// `cae svm` checks against the memory available before it starts.
uint64_t kernel_svm_host_bytes(const std::vector<int64_t>& class_rows, int64_t dim,
                               const TrainOptions& options);

// Throws SvmError (bad options, a pair that needs more than the cap),
// BackendError, or what libsvm's worker threads threw.
OvoModel train_ovo(Context& context, const FeatureSet& train, const TrainOptions& options,
                   TrainStats* stats = nullptr);
// The same with one producer per context (contexts of one backend, one per
// device, or several on one device): the same model for any number of them.
OvoModel train_ovo(const std::vector<Context*>& contexts, const FeatureSet& train,
                   const TrainOptions& options, TrainStats* stats = nullptr);
// On the rows `rows` of `train` only (ascending; e.g. a validation split's
// training part), without copying them. The model's sv_source are rows of `train`.
OvoModel train_ovo(const std::vector<Context*>& contexts, const FeatureSet& train,
                   const std::vector<int64_t>& rows, const TrainOptions& options,
                   TrainStats* stats = nullptr);

}  // namespace cae::svm
