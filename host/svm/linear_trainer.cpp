#include "svm/linear_trainer.hpp"

#include <cblas.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <memory>
#include <numeric>

#include "common/parallel.hpp"
#include "plugin/byte_exchange.hpp"
#include "svm/class_layout.hpp"
#include "svm/elapsed_seconds.hpp"
#include "svm/kept_threads.hpp"
#include "svm/lbfgs_memory.hpp"
#include "svm/linear_device_groups.hpp"
#include "svm/linear_scores.hpp"
#include "svm/svm_error.hpp"

namespace cae::svm {

namespace {

constexpr int64_t kBlockRows = 256;
static_assert(kBlockRows == CAE_LINEAR_LOSS_BLOCK_ROWS,
              "a device's loss sums come in the host's blocks of rows");
// The rows are cut into at most this many groups, each summed on its own and
// the groups added in order: the result is the same for any thread count.
constexpr int64_t kMaxGroups = 64;
// On the backend, fewer and larger groups: every group costs a pass its
// calls (two GEMMs, and the loss where the device computes it), its
// transfers, and its classes x dim product a download and a sum on the
// host (with 64 groups of CIFAR-10's 45,000 rows, 21 MB a pass for 8,192
// dimensions), while a device needs only one GEMM in flight to be busy.
// Eight still spread over the devices of one host.
constexpr int64_t kMaxDeviceGroups = 8;
// The gradient's sums over the groups run in this many fixed parts, a
// thread for every kFloatsPerThread of the groups' floats.
constexpr int64_t kGradientParts = 64;
constexpr int64_t kFloatsPerThread = int64_t{1} << 16;
constexpr size_t kHistory = 10;   // L-BFGS correction pairs
constexpr double kArmijo = 1e-4;  // sufficient decrease
constexpr int kMaxStepHalvings = 40;

}  // namespace

// A named namespace, not an anonymous one: LinearTrainer::State, a member of
// a class with external linkage, holds it.
namespace linear_objective {

// The objective divided by C N (the same minimiser):
//   f(W, b) = mean loss + lambda / 2 |W|^2,  lambda = 1 / (C N),
// the loss the cross-entropy or the squared hinges (LinearLoss), and its
// gradient. theta = [W (classes x dim, row-major), b (classes)].
class Objective {
 public:
  Objective(const FeatureSet& train, const std::vector<int64_t>& rows, std::vector<int32_t> targets,
            int64_t classes, const Standardizer& standardizer, int threads, const RankShare& ranks,
            const std::vector<Context*>& devices, LinearLoss loss)
      : train_(train),
        rows_(rows),
        targets_(std::move(targets)),
        k_(classes),
        d_(train.dim),
        standardizer_(standardizer),
        threads_(threads),
        ranks_(ranks),
        loss_(loss) {
    const int64_t blocks = (static_cast<int64_t>(rows_.size()) + kBlockRows - 1) / kBlockRows;
    groups_ =
        std::min(devices.empty() ? kMaxGroups : kMaxDeviceGroups, std::max<int64_t>(blocks, 1));
    blocks_ = blocks;
    // This rank's groups: every world-th, from its rank on (all of them alone).
    const int64_t world = ranks_.spread() ? ranks_.group->world() : 1;
    const int64_t rank = ranks_.spread() ? ranks_.group->rank() : 0;
    for (int64_t g = rank; g < groups_; g += world) mine_.push_back(g);
    if (!devices.empty() && !mine_.empty()) {
      std::vector<RowRange> spans;
      for (int64_t g = 0; g < groups_; ++g) spans.push_back(span_of(g));
      DeviceLoss device_loss;
      device_loss.kind = loss_ == LinearLoss::SquaredHinge ? CAE_LINEAR_LOSS_SQUARED_HINGE
                                                           : CAE_LINEAR_LOSS_CROSS_ENTROPY;
      device_loss.scale = static_cast<float>(1.0 / static_cast<double>(rows_.size()));
      device_loss.targets = &targets_;
      device_ = std::make_unique<DeviceRowGroups>(devices, train_, rows_, spans, mine_, k_,
                                                  kBlockRows, threads_, device_loss);
    }
    // Every block writes its own sums and every group its own product on
    // every pass (a rank receives the others'), so none of them is zeroed
    // between passes. The device pass keeps its groups' products in its own
    // buffers: here only the ranks' exchange needs room for them.
    residual_sums_.resize(static_cast<size_t>(blocks_ * k_));
    losses_.resize(static_cast<size_t>(blocks_));
    if (!device_ || ranks_.spread()) products_.resize(static_cast<size_t>(groups_ * k_ * d_));
    size_folded(k_, d_, folded_);
  }

  int64_t size() const { return k_ * d_ + k_; }

  // The penalty's weight for C: the objective is divided by C N.
  void set_C(double C) { lambda_ = 1.0 / (C * static_cast<double>(rows_.size())); }

  // f(theta); fills `gradient` and the mean loss.
  double evaluate(const std::vector<double>& theta, std::vector<double>& gradient,
                  double& mean_loss) {
    const auto started = std::chrono::steady_clock::now();
    const double value = evaluate_untimed(theta, gradient, mean_loss);
    ++passes_;
    pass_seconds_ += seconds_since(started);
    return value;
  }

  int64_t passes() const { return passes_; }
  double pass_seconds() const { return pass_seconds_; }
  double backend_seconds() const { return device_ ? device_->backend_seconds() : 0.0; }
  double fold_seconds() const { return fold_seconds_; }
  double gradient_seconds() const { return gradient_seconds_; }
  std::string loss_placement() const { return device_ ? device_->loss_placement() : ""; }

 private:
  double evaluate_untimed(const std::vector<double>& theta, std::vector<double>& gradient,
                          double& mean_loss) {
    auto phase = std::chrono::steady_clock::now();
    for_each_item_kept(std::min<int64_t>(threads_, k_), k_, [&](int64_t c) {
      fold_class(theta.data(), theta[static_cast<size_t>(k_ * d_ + c)], standardizer_, c, d_,
                 folded_);
    });
    fold_seconds_ += seconds_since(phase);
    const FoldedWeights& folded = folded_;
    const size_t kd = static_cast<size_t>(k_ * d_);
    if (device_ && device_->losses_on_devices()) {
      device_->pass_with_losses(folded);
      for (const int64_t g : mine_) take_block_sums(g, device_->block_sums(g));
    } else if (device_) {
      device_->pass(folded, [&](int64_t first, int64_t n, float* scores) {
        residuals_in_place(first, n, scores);
      });
    } else {
      single_threaded_blas();
      const int64_t mine = static_cast<int64_t>(mine_.size());
      parallel_chunks(threads_, mine, [&](int64_t begin, int64_t end) {
        std::vector<float> gathered, scores;
        for (int64_t m = begin; m < end; ++m) run_group(mine_[size_t(m)], folded, gathered, scores);
      });
    }
    phase = std::chrono::steady_clock::now();
    // Where each group's product is: this rank's in products_ or the device
    // pass's buffers, the other ranks' put in products_ by the exchange.
    std::vector<const float*> product_of(static_cast<size_t>(groups_), nullptr);
    for (const int64_t g : mine_) {
      product_of[static_cast<size_t>(g)] =
          device_ ? device_->product(g) : products_.data() + static_cast<size_t>(g) * kd;
    }
    if (ranks_.spread()) share_groups(product_of);
    // A = sum_i R_i x_i^T (raw rows), r = sum_i R_i; R_i = d loss_i / d s_i / N.
    std::vector<double> r(static_cast<size_t>(k_), 0.0);
    double loss = 0.0;
    for (int64_t b = 0; b < blocks_; ++b) {
      for (int64_t c = 0; c < k_; ++c) r[static_cast<size_t>(c)] += residual_sums_[b * k_ + c];
      loss += losses_[static_cast<size_t>(b)];
    }
    mean_loss = loss / static_cast<double>(rows_.size());
    // d/dW of the standardised model: (A - r mean^T) / scale, plus the
    // penalty, A = the groups' products added in group order. Over fixed
    // parts of the weights (the penalty's partial sums added in part order),
    // on as many threads as the groups' floats keep busy.
    gradient.resize(theta.size());
    std::vector<double> penalties(static_cast<size_t>(kGradientParts), 0.0);
    const int gradient_threads = static_cast<int>(
        std::max<int64_t>(1, std::min<int64_t>(threads_, groups_ * k_ * d_ / kFloatsPerThread)));
    const int64_t parts = for_each_fixed_part_kept(
        gradient_threads, k_ * d_, kGradientParts, [&](int64_t part, int64_t begin, int64_t end) {
          double penalty = 0.0;
          for (int64_t at = begin; at < end; ++at) {
            double g = 0.0;
            for (int64_t group = 0; group < groups_; ++group) {
              g += product_of[static_cast<size_t>(group)][at];
            }
            if (!standardizer_.empty()) {
              const size_t j = static_cast<size_t>(at % d_);
              g = (g - r[static_cast<size_t>(at / d_)] * standardizer_.mean()[j]) /
                  standardizer_.scale()[j];
            }
            gradient[static_cast<size_t>(at)] = g + lambda_ * theta[static_cast<size_t>(at)];
            penalty += theta[static_cast<size_t>(at)] * theta[static_cast<size_t>(at)];
          }
          penalties[static_cast<size_t>(part)] = penalty;
        });
    double penalty = 0.0;
    for (int64_t part = 0; part < parts; ++part) penalty += penalties[static_cast<size_t>(part)];
    for (int64_t c = 0; c < k_; ++c)
      gradient[kd + static_cast<size_t>(c)] = r[static_cast<size_t>(c)];
    gradient_seconds_ += seconds_since(phase);
    return mean_loss + 0.5 * lambda_ * penalty;
  }

  // Rows [first, first + n) of rows_ as one pointer: the features themselves
  // when they are consecutive rows, else gathered into `gathered`.
  const float* block_rows(int64_t first, int64_t n, std::vector<float>& gathered) const {
    const int64_t a = rows_[static_cast<size_t>(first)];
    if (rows_[static_cast<size_t>(first + n - 1)] - a == n - 1) return train_.row(a);
    gathered.resize(static_cast<size_t>(n * d_));
    for (int64_t i = 0; i < n; ++i) {
      const float* source = train_.row(rows_[static_cast<size_t>(first + i)]);
      std::copy(source, source + d_, gathered.begin() + i * d_);
    }
    return gathered.data();
  }

  // Rows [first, first + n) of rows_, one block (first a multiple of
  // kBlockRows, n at most kBlockRows): their scores (n x classes) become the
  // residuals R = d loss / d s / N in place, and the block's loss and
  // residual sums are theirs. Blocks may run side by side; the sums are
  // added in block order. Each block sums in locals and writes its slots
  // once: the slots of neighbouring blocks share cache lines, and a write
  // per row and class from every thread kept those lines moving between
  // cores (the squared hinge's pass took twice the cross-entropy's).
  void residuals_in_place(int64_t first, int64_t n, float* scores) {
    const int64_t b = first / kBlockRows;
    const double inverse_n = 1.0 / static_cast<double>(rows_.size());
    std::vector<double> residual_sum(static_cast<size_t>(k_), 0.0);
    double loss = 0.0;
    std::vector<double> exps(static_cast<size_t>(k_));  // each exp once, not twice
    for (int64_t i = 0; i < n; ++i) {
      float* s = scores + i * k_;
      const int32_t y = targets_[static_cast<size_t>(first + i)];
      if (loss_ == LinearLoss::SquaredHinge) {
        squared_hinge_in_place(y, inverse_n, s, loss, residual_sum.data());
        continue;
      }
      const double top = *std::max_element(s, s + k_);
      double sum = 0.0;
      for (int64_t c = 0; c < k_; ++c) {
        exps[static_cast<size_t>(c)] = std::exp(double(s[c]) - top);
        sum += exps[static_cast<size_t>(c)];
      }
      loss += std::log(sum) - (double(s[y]) - top);
      for (int64_t c = 0; c < k_; ++c) {
        const double p = exps[static_cast<size_t>(c)] / sum;
        const double residual = (p - (c == y ? 1.0 : 0.0)) * inverse_n;
        s[c] = static_cast<float>(residual);
        residual_sum[static_cast<size_t>(c)] += residual;
      }
    }
    std::copy(residual_sum.begin(), residual_sum.end(), residual_sums_.begin() + b * k_);
    losses_[static_cast<size_t>(b)] = loss;
  }

  // One row's scores s (classes) become its squared hinges' gradient / N:
  // class c's score is pushed above 1 for the row's class y and below -1 for
  // every other, loss max(0, 1 - t s_c)^2 with t = +1 for c = y, else -1.
  void squared_hinge_in_place(int32_t y, double inverse_n, float* s, double& loss,
                              double* residual_sum) const {
    for (int64_t c = 0; c < k_; ++c) {
      const double t = c == y ? 1.0 : -1.0;
      const double margin = std::max(0.0, 1.0 - t * double(s[c]));
      loss += margin * margin;
      const double residual = -2.0 * t * margin * inverse_n;
      s[c] = static_cast<float>(residual);
      residual_sum[c] += residual;
    }
  }

  // Group g's block sums as linear_loss wrote them on a device ([blocks,
  // classes + 1, 2]: each value two floats, the residual sums then the
  // loss): its blocks are this object's blocks of the group, since a group
  // begins at a multiple of kBlockRows.
  void take_block_sums(int64_t g, const float* sums) {
    const size_t k = static_cast<size_t>(k_);
    for (int64_t b = first_block(g); b < first_block(g + 1); ++b) {
      const float* block = sums + static_cast<size_t>(b - first_block(g)) * (k + 1) * 2;
      for (size_t c = 0; c < k; ++c) {
        residual_sums_[static_cast<size_t>(b) * k + c] =
            double(block[2 * c]) + double(block[2 * c + 1]);
      }
      losses_[static_cast<size_t>(b)] = double(block[2 * k]) + double(block[2 * k + 1]);
    }
  }

  // Group g's blocks: [first_block(g), first_block(g + 1)).
  int64_t first_block(int64_t g) const { return blocks_ * g / groups_; }

  // Group g's rows: [first, first + n) of rows_.
  RowRange span_of(int64_t g) const {
    const int64_t total = static_cast<int64_t>(rows_.size());
    const int64_t first = first_block(g) * kBlockRows;
    const int64_t last = std::min(total, first_block(g + 1) * kBlockRows);
    return {static_cast<size_t>(first), static_cast<size_t>(last)};
  }

  void run_group(int64_t g, const FoldedWeights& folded, std::vector<float>& gathered,
                 std::vector<float>& scores) {
    const int64_t total = static_cast<int64_t>(rows_.size());
    float* product = products_.data() + static_cast<size_t>(g * k_ * d_);
    for (int64_t block = first_block(g); block < first_block(g + 1); ++block) {
      const int64_t first = block * kBlockRows;
      const int64_t n = std::min(kBlockRows, total - first);
      const float* x = block_rows(first, n, gathered);
      scores_of(folded, x, n, scores);
      residuals_in_place(first, n, scores.data());
      // The group's first block overwrites the last pass's product; the
      // others add to it.
      const float keep = block == first_block(g) ? 0.0f : 1.0f;
      cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, static_cast<int>(k_),
                  static_cast<int>(d_), static_cast<int>(n), 1.0f, scores.data(),
                  static_cast<int>(k_), x, static_cast<int>(d_), keep, product,
                  static_cast<int>(d_));
    }
  }

  // Every rank's groups to every rank, as they are (bytes: nothing rounded):
  // each group's product and its blocks' residual sums and losses. The other
  // ranks' products land in products_, and product_of points there.
  void share_groups(std::vector<const float*>& product_of) {
    const size_t kd = static_cast<size_t>(k_ * d_);
    const size_t k = static_cast<size_t>(k_);
    auto append = [](std::vector<uint8_t>& out, const void* p, size_t bytes) {
      const auto* b = static_cast<const uint8_t*>(p);
      out.insert(out.end(), b, b + bytes);
    };
    // Bytes of group g: its product, then per block k residual sums and a loss.
    auto group_bytes = [&](int64_t g) {
      const size_t blocks = static_cast<size_t>(first_block(g + 1) - first_block(g));
      return kd * sizeof(float) + blocks * (k + 1) * sizeof(double);
    };
    std::vector<uint8_t> bytes;
    for (const int64_t g : mine_) {
      append(bytes, product_of[size_t(g)], kd * sizeof(float));
      for (int64_t b = first_block(g); b < first_block(g + 1); ++b) {
        append(bytes, residual_sums_.data() + size_t(b) * k, k * sizeof(double));
        append(bytes, losses_.data() + size_t(b), sizeof(double));
      }
    }
    const std::vector<std::vector<uint8_t>> all =
        all_gather_bytes(*ranks_.group, *ranks_.context, bytes);
    const int64_t world = ranks_.group->world();
    for (int64_t r = 0; r < world; ++r) {
      const std::vector<uint8_t>& got = all[size_t(r)];
      size_t expected = 0;
      for (int64_t g = r; g < groups_; g += world) expected += group_bytes(g);
      if (got.size() != expected) {
        throw SvmError("rank " + std::to_string(r) + " sent " + std::to_string(got.size()) +
                       " bytes of the linear classifier's sums, not " + std::to_string(expected));
      }
      const uint8_t* at = got.data();
      for (int64_t g = r; g < groups_; g += world) {
        float* product = products_.data() + size_t(g) * kd;
        std::memcpy(product, at, kd * sizeof(float));
        product_of[size_t(g)] = product;
        at += kd * sizeof(float);
        for (int64_t b = first_block(g); b < first_block(g + 1); ++b) {
          std::memcpy(residual_sums_.data() + size_t(b) * k, at, k * sizeof(double));
          at += k * sizeof(double);
          std::memcpy(losses_.data() + size_t(b), at, sizeof(double));
          at += sizeof(double);
        }
      }
    }
  }

  const FeatureSet& train_;
  const std::vector<int64_t>& rows_;
  const std::vector<int32_t> targets_;  // class index per entry of rows_
  const int64_t k_;
  const int64_t d_;
  const Standardizer& standardizer_;
  double lambda_ = 0.0;
  const int threads_;
  const RankShare& ranks_;
  std::vector<int64_t> mine_;                // the groups this rank passes over
  std::unique_ptr<DeviceRowGroups> device_;  // the groups on the backend, or none
  int64_t groups_ = 1;
  int64_t blocks_ = 0;
  std::vector<float> products_;        // [groups, classes, dim]
  std::vector<double> residual_sums_;  // [blocks, classes]
  std::vector<double> losses_;         // [blocks]
  LinearLoss loss_;
  FoldedWeights folded_;  // this pass's weights on raw rows, its buffers kept
  int64_t passes_ = 0;
  double pass_seconds_ = 0.0;
  double fold_seconds_ = 0.0;      // of pass_seconds_: folding the weights
  double gradient_seconds_ = 0.0;  // of pass_seconds_: the groups' products summed
};

}  // namespace linear_objective

uint64_t linear_training_bytes(int64_t classes, int64_t dim, int threads) {
  const uint64_t kd = static_cast<uint64_t>(classes * dim + classes);
  const uint64_t per_thread = static_cast<uint64_t>(kBlockRows) * (dim + classes) * sizeof(float);
  // products of every group (float), the history (2 kHistory vectors) and
  // about eight working vectors (double), per-thread gather buffers.
  return kMaxGroups * kd * sizeof(float) + (2 * kHistory + 8) * kd * sizeof(double) +
         static_cast<uint64_t>(resolve_thread_count(threads)) * per_thread;
}

struct LinearTrainer::State {
  State(const FeatureSet& features, const std::vector<int64_t>& chosen, const LinearOptions& given)
      : train(features), rows(chosen), options(given), layout(ClassLayout::of(features, chosen)) {}
  const FeatureSet& train;
  const std::vector<int64_t>& rows;
  LinearOptions options;
  ClassLayout layout;  // throws for fewer than two classes
  int threads = 1;
  Standardizer standardizer;
  std::unique_ptr<linear_objective::Objective> objective;
  double setup_seconds = 0.0;
  // |gradient| at W = 0, b = 0: the tolerance's reference (see train). It
  // does not depend on C (the penalty's gradient vanishes at 0), so one pass
  // serves every C of a search; NaN until a warm start needs it.
  double zero_gradient_norm = std::nan("");
};

LinearTrainer::LinearTrainer(const FeatureSet& train, const std::vector<int64_t>& rows,
                             const LinearOptions& options) {
  const auto started = std::chrono::steady_clock::now();
  if (options.max_iterations < 1 || !(options.tolerance > 0.0) ||
      !std::isfinite(options.tolerance)) {
    throw SvmError("the linear classifier needs at least one iteration and a tolerance > 0");
  }
  if (rows.empty()) throw SvmError("the linear classifier needs training rows");
  state_ = std::make_unique<State>(train, rows, options);
  const ClassLayout& layout = state_->layout;
  std::vector<int32_t> targets(rows.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    const int32_t label = train.labels[static_cast<size_t>(rows[i])];
    targets[i] =
        static_cast<int32_t>(std::lower_bound(layout.labels.begin(), layout.labels.end(), label) -
                             layout.labels.begin());
  }
  const int threads = resolve_thread_count(options.threads);
  state_->threads = threads;
  if (options.standardize) state_->standardizer = Standardizer::fit(train, rows, threads);
  state_->objective = std::make_unique<linear_objective::Objective>(
      train, rows, std::move(targets), layout.class_count(), state_->standardizer, threads,
      options.ranks, options.devices, options.loss);
  state_->setup_seconds = seconds_since(started);
}

LinearTrainer::~LinearTrainer() = default;

LinearTrainer::Accounting LinearTrainer::accounting() const {
  const linear_objective::Objective& objective = *state_->objective;
  Accounting out;
  out.setup_seconds = state_->setup_seconds;
  out.passes = objective.passes();
  out.pass_seconds = objective.pass_seconds();
  out.backend_seconds = objective.backend_seconds();
  out.fold_seconds = objective.fold_seconds();
  out.gradient_seconds = objective.gradient_seconds();
  out.loss_placement = objective.loss_placement();
  return out;
}

LinearModel LinearTrainer::train(double C, const LinearModel* start) {
  if (!(C > 0.0) || !std::isfinite(C)) throw SvmError("the linear classifier needs C > 0");
  const FeatureSet& train = state_->train;
  const LinearOptions& options = state_->options;
  const int64_t k = state_->layout.class_count();
  linear_objective::Objective& objective = *state_->objective;
  objective.set_C(C);
  LinearModel model;
  model.classes = state_->layout.labels;
  model.dim = train.dim;
  model.objective = options.loss;
  model.C = C;
  model.training_rows = static_cast<int64_t>(state_->rows.size());
  model.standardizer = state_->standardizer;

  std::vector<double> theta(static_cast<size_t>(objective.size()), 0.0);
  if (start) {
    if (start->classes != model.classes || start->dim != model.dim) {
      throw SvmError("the linear classifier's starting point has other classes or dimensions");
    }
    std::copy(start->weights.begin(), start->weights.end(), theta.begin());
    std::copy(start->bias.begin(), start->bias.end(), theta.begin() + k * model.dim);
  }
  std::vector<double> gradient;
  double loss = 0.0;
  // The tolerance is relative to |gradient| at W = 0, b = 0, wherever the
  // iterations start (as liblinear's): relative to a warm start's own,
  // already small gradient, each C of a search would be held to a stricter
  // standard than the first and run to the iteration limit.
  if (start && std::isnan(state_->zero_gradient_norm)) {
    std::vector<double> zero(theta.size(), 0.0), zero_gradient;
    double zero_loss = 0.0;
    objective.evaluate(zero, zero_gradient, zero_loss);
    state_->zero_gradient_norm = std::sqrt(fixed_order_norm2(zero_gradient, state_->threads));
  }
  double f = objective.evaluate(theta, gradient, loss);
  LbfgsMemory memory(kHistory, state_->threads);
  memory.start(gradient);
  const double reference = start ? state_->zero_gradient_norm : std::sqrt(memory.gradient_norm2());
  std::vector<double> d, trial(theta.size()), trial_gradient;
  int iteration = 0;
  bool converged = false;
  while (iteration < options.max_iterations) {
    const double norm = std::sqrt(memory.gradient_norm2());
    if (norm <= options.tolerance * reference || norm == 0.0) {
      converged = true;
      break;
    }
    double slope = memory.direction(gradient, d);
    if (!(slope < 0.0)) {  // not a descent direction: start over from steepest descent
      memory.forget();
      for (size_t i = 0; i < d.size(); ++i) d[i] = -gradient[i];
      slope = -norm * norm;
    }
    double t = memory.empty() ? std::min(1.0, 1.0 / norm) : 1.0;
    double trial_f = 0.0;
    double trial_loss = 0.0;
    bool accepted = false;
    for (int halving = 0; halving < kMaxStepHalvings; ++halving, t *= 0.5) {
      for (size_t i = 0; i < theta.size(); ++i) trial[i] = theta[i] + t * d[i];
      trial_f = objective.evaluate(trial, trial_gradient, trial_loss);
      if (std::isfinite(trial_f) && trial_f <= f + kArmijo * t * slope) {
        accepted = true;
        break;
      }
    }
    if (!accepted) break;  // no decrease left at float precision
    memory.advance(theta, trial, gradient, trial_gradient);
    theta.swap(trial);
    gradient.swap(trial_gradient);
    f = trial_f;
    loss = trial_loss;
    ++iteration;
    if (options.progress) options.progress(iteration, loss);
  }
  model.weights.assign(theta.begin(), theta.begin() + k * model.dim);
  model.bias.assign(theta.begin() + k * model.dim, theta.end());
  model.iterations = iteration;
  model.converged = converged;
  model.loss = loss;
  model.validate("the trained linear classifier");
  return model;
}

LinearModel train_linear(const FeatureSet& train, const std::vector<int64_t>& rows,
                         const LinearOptions& options, const LinearModel* start) {
  if (!(options.C > 0.0) || !std::isfinite(options.C)) {
    throw SvmError("the linear classifier needs C > 0");
  }
  return LinearTrainer(train, rows, options).train(options.C, start);
}

}  // namespace cae::svm
