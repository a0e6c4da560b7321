// Trains the linear classifier (svm/linear_model.hpp): multinomial logistic
// regression with an L2 penalty,
//     min_{W,b}  1/2 |W|^2 + C sum_i -log softmax(W z_i + b)[y_i],
// or one L2-SVM per class against the rest (LinearLoss::SquaredHinge),
//     min_{W,b}  1/2 |W|^2 + C sum_i sum_c max(0, 1 - t_ic (W z_i + b)_c)^2,
// z_i the standardised features, by L-BFGS (10 pairs, backtracking line
// search). Every pass over the rows is two SGEMMs per block of rows, on the
// raw features (the standardisation is folded into the weights), so the only
// memory beyond the caller's features is a few classes x dim buffers per
// thread: a 200,000 x 8,192 set needs its 6.1 GiB and little more.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "svm/features.hpp"
#include "svm/linear_model.hpp"
#include "svm/rank_share.hpp"

namespace cae::svm {

struct LinearOptions {
  LinearLoss loss = LinearLoss::Logistic;
  double C = 1.0;
  bool standardize = true;
  int threads = 0;           // 0: hardware threads
  int max_iterations = 200;  // L-BFGS iterations
  double tolerance = 1e-3;   // stop when |gradient| <= tolerance * |gradient at W = 0, b = 0|
  // Called after each iteration (iteration, mean training loss).
  std::function<void(int, double)> progress;
  // Under a launcher: every rank holds every row and passes over its share of
  // the rows' fixed groups; the groups' sums reach every rank and are added in
  // group order, so every rank gets the one-process model bit for bit.
  RankShare ranks;
  // The backend's devices to pass over the rows on (svm/linear_device_groups.hpp);
  // empty: the host's OpenBLAS, on `threads` threads.
  std::vector<Context*> devices;
};

// On the rows `rows` of `train` (ascending). `start` (optional, same classes
// and dimension) is where the iterations begin, e.g. the solution for a
// smaller C; otherwise W = 0, b = 0. The result does not depend on the
// thread count. Throws SvmError for fewer than two classes or bad options.
LinearModel train_linear(const FeatureSet& train, const std::vector<int64_t>& rows,
                         const LinearOptions& options, const LinearModel* start = nullptr);

// The same for several C on the same rows (a search): the standardiser, the
// fixed row groups and, on the backend, their upload are made once, in the
// constructor; train(C, start) then gives train_linear's model for that C.
// `train` and `rows` must outlive it. Throws as train_linear.
class LinearTrainer {
 public:
  LinearTrainer(const FeatureSet& train, const std::vector<int64_t>& rows,
                const LinearOptions& options);  // options.C is not used
  ~LinearTrainer();
  LinearModel train(double C, const LinearModel* start = nullptr);

  // Where a search's time went, so that its log accounts for all of it: the
  // constructor (standardiser, row groups, their upload), and, summed over
  // every train() so far, the passes over the rows (objective evaluations:
  // the products on the host or the backend, with their transfers and the
  // losses) and how long they took, and of that the time in the backend's
  // calls (zero on the host). The rest of train() is the L-BFGS steps
  // between the passes.
  struct Accounting {
    double setup_seconds = 0.0;
    int64_t passes = 0;
    double pass_seconds = 0.0;
    double backend_seconds = 0.0;
    // Of the passes' host time beside the backend's calls: folding the
    // standardisation into the weights before the products, and summing the
    // groups' products into the gradient after them.
    double fold_seconds = 0.0;
    double gradient_seconds = 0.0;
    // With the passes on the backend, where the loss between the two
    // products is computed: "on the backend (v4)" or "on the host: <why>".
    std::string loss_placement;
  };
  Accounting accounting() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// Host bytes train_linear allocates beyond the features, for `classes` x `dim`.
uint64_t linear_training_bytes(int64_t classes, int64_t dim, int threads);

}  // namespace cae::svm
