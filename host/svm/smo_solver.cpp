#include "svm/smo_solver.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>

#include "svm/smo_passes.hpp"
#include "svm/svm_error.hpp"

namespace cae::svm {

namespace {

// Curvature used when K_ii + K_jj - 2 K_ij is not positive (a kernel that is
// not quite positive semi-definite in float32): the step then goes to a bound.
constexpr double kTau = 1e-12;
constexpr double kInfinity = std::numeric_limits<double>::infinity();

// The decision offset: at the optimum y_t G_t = rho for every free variable
// (averaged to spread rounding); with none free, the middle of the interval
// the bounded variables' KKT conditions leave for it. Rows [0, positives)
// have y = +1.
double decision_offset(const std::vector<double>& alpha, const std::vector<double>& gradient,
                       size_t positives, double C) {
  double upper = kInfinity;
  double lower = -kInfinity;
  double free_sum = 0.0;
  int64_t free_count = 0;
  for (size_t t = 0; t < alpha.size(); ++t) {
    const bool positive = t < positives;
    const double yg = positive ? gradient[t] : -gradient[t];
    const bool at_zero = alpha[t] <= 0.0;
    const bool at_C = alpha[t] >= C;
    const bool may_move_up = positive ? !at_C : !at_zero;
    if (!at_zero && !at_C) {
      free_sum += yg;
      ++free_count;
    } else if (may_move_up) {  // rho may not exceed y G here
      upper = std::min(upper, yg);
    } else {  // may only move down: rho may not be below y G
      lower = std::max(lower, yg);
    }
  }
  return free_count > 0 ? free_sum / static_cast<double>(free_count) : 0.5 * (upper + lower);
}

// The solver's state. Alphas, gradients, labels and the kernel's diagonal
// are kept per row in the original order; the variables SMO still looks at
// (the active set) also have a packed copy, in ascending row order, of what
// each iteration reads: y G, the diagonal, whether the variable may move up
// or down, and where its entries lie in a kernel row. The two passes of every
// iteration then read contiguous arrays and only the kernel rows are
// gathered (a chain of five Cs on a 9,000-row pair: 10% faster than reading
// every array through the active set's row list, with the same choices). y G
// of an active variable lives in the packed copy; gradient_ is brought up to
// date before anything reads it. Value: how the kernel is stored (float32 or
// unorm16, kernel_values.hpp).
template <class Value>
class Smo {
 public:
  using Kernel = PairKernelOf<Value>;
  Smo(const Kernel& kernel, double C)
      : K_(kernel),
        l_(static_cast<size_t>(kernel.size())),
        boundary_(static_cast<size_t>(kernel.first_rows)),
        C_(C) {
    y_.resize(l_);
    diagonal_.resize(l_);
    alpha_.assign(l_, 0.0);
    gradient_.assign(l_, -1.0);  // Q 0 - e
    for (size_t t = 0; t < l_; ++t) {
      y_[t] = t < boundary_ ? 1.0 : -1.0;
      diagonal_[t] = K_.at(static_cast<int64_t>(t), static_cast<int64_t>(t));
    }
    std::vector<size_t> all(l_);
    std::iota(all.begin(), all.end(), size_t{0});
    pack(all);
  }

  // One step of SMO on the active variables. False when their KKT violation
  // is at most eps (or no pair can move).
  bool step(double eps) {
    // i: the last of the most violating variables that may move up (y_i a_i
    // can grow), found by the last update's gradient pass when nothing
    // changed since.
    if (!next_up_known_) next_up_ = most_violating_up(active());
    next_up_known_ = false;
    if (next_up_.position == kNoVariable) return false;
    const size_t i = next_up_.position;
    const double up_max = next_up_.violation;
    // j: among the variables that may move down, the one whose pairing with
    // i decreases the objective most (second order: gain b^2 / a). The gains
    // are compared as fractions, b^2 best_a >= best_b2 a (a > 0), so the scan
    // divides nowhere: a division per variable would cost more than the rest
    // of the scan.
    const SecondChoice second =
        choose_second(active(), segments(K_.row(static_cast<int64_t>(index_[i]))), up_max,
                      packed_diagonal_[i], kTau);
    const size_t j = second.j;
    if (up_max + second.low_max <= eps || j == kNoVariable) return false;
    update(i, j, up_max + yg_[j]);
    return true;
  }

  bool all_active() const { return index_.size() == l_; }

  // The next step's i is found only by a scan of the active set as it is
  // now: shrinking, reactivation or a new start make a found one stale.
  void forget_next_up() { next_up_known_ = false; }

  // Starts from `alpha` instead of 0 (checked in [0, C] by the caller): every
  // gradient from the support vectors, as reactivate_all() computes the
  // inactive ones.
  void seed(const std::vector<double>& alpha) {
    forget_next_up();
    alpha_ = alpha;
    pack({});  // every variable "inactive": reactivate_all() recomputes all gradients
    reactivate_all();
  }
  // The same with the start's gradient known (every variable active).
  void seed(const std::vector<double>& alpha, const std::vector<double>& gradient) {
    forget_next_up();
    alpha_ = alpha;
    gradient_ = gradient;
    std::vector<size_t> all(l_);
    std::iota(all.begin(), all.end(), size_t{0});
    pack(all);
  }

  // Shrinking: a variable at a bound whose gradient says it would not move
  // even paired with the most violating variable of the other set leaves the
  // active set (its gradient is then no longer updated). When the violation
  // first gets within 10 eps, everything is brought back once, so variables
  // dropped early on a rough gradient get another look.
  void shrink(double eps) {
    forget_next_up();
    double up_max = -kInfinity;
    double low_max = -kInfinity;
    for (size_t k = 0; k < index_.size(); ++k) {
      if (up_[k]) up_max = std::max(up_max, -yg_[k]);
      if (down_[k]) low_max = std::max(low_max, yg_[k]);
    }
    if (!reactivated_near_end_ && up_max + low_max <= 10.0 * eps) {
      reactivated_near_end_ = true;
      reactivate_all();
    }
    unpack_gradient();
    std::vector<size_t> kept;
    for (size_t k = 0; k < index_.size(); ++k) {
      const double yg = yg_[k];
      // Only in I_up: it could only pair with a j whose y G exceeds its own.
      // Only in I_low: it could only pair with an i whose -y G exceeds its own.
      const bool idle = (up_[k] && !down_[k] && yg > low_max) || (down_[k] && !up_[k] && -yg > up_max);
      if (!idle) kept.push_back(index_[k]);
    }
    if (kept.size() != index_.size()) pack(kept);
  }

  // Recomputes the inactive variables' gradients from the support vectors,
  // G_t = y_t sum_j y_j a_j K_tj - 1, and makes every variable active.
  void reactivate_all() {
    if (all_active()) return;
    forget_next_up();
    unpack_gradient();
    std::vector<char> is_active(l_, 0);
    for (const size_t t : index_) is_active[t] = 1;
    std::vector<size_t> support;
    for (size_t t = 0; t < l_; ++t) {
      if (alpha_[t] > 0.0) support.push_back(t);
    }
    const size_t inactive = l_ - index_.size();
    if (4 * inactive > l_) {
      // Most variables inactive: add each support vector's whole row, read
      // contiguously, into every sum at once (K symmetric: K_tj = K_jt). The
      // sums take their terms in the same order as below.
      std::vector<double> sum(l_, 0.0);
      for (const size_t j : support) {
        const double weight = y_[j] * alpha_[j];
        const typename Kernel::Row row = K_.row(static_cast<int64_t>(j));
        add_weighted_row(sum.data(), row.against_first, boundary_, weight);
        add_weighted_row(sum.data() + boundary_, row.against_second, l_ - boundary_, weight);
      }
      for (size_t t = 0; t < l_; ++t) {
        if (!is_active[t]) gradient_[t] = y_[t] * sum[t] - 1.0;
      }
    } else {
      const auto split = std::lower_bound(support.begin(), support.end(), boundary_);
      for (size_t t = 0; t < l_; ++t) {
        if (is_active[t]) continue;
        const typename Kernel::Row row = K_.row(static_cast<int64_t>(t));
        double sum = 0.0;
        for (auto s = support.begin(); s != split; ++s) {
          sum += y_[*s] * alpha_[*s] * kernel_value(row.against_first[*s]);
        }
        for (auto s = split; s != support.end(); ++s) {
          sum += y_[*s] * alpha_[*s] * kernel_value(row.against_second[*s - boundary_]);
        }
        gradient_[t] = y_[t] * sum - 1.0;
      }
    }
    std::vector<size_t> all(l_);
    std::iota(all.begin(), all.end(), size_t{0});
    pack(all);
  }

  SmoResult finish(int64_t iterations, bool converged) {
    reactivate_all();  // rho and the objective need every gradient
    unpack_gradient();
    SmoResult result;
    result.rho = rho();
    double twice_objective = 0.0;
    for (size_t t = 0; t < l_; ++t) twice_objective += alpha_[t] * (gradient_[t] - 1.0);
    result.objective = 0.5 * twice_objective;
    result.iterations = iterations;
    result.converged = converged;
    result.alpha = std::move(alpha_);
    result.gradient = std::move(gradient_);
    return result;
  }

 private:
  bool may_move_up(size_t t) const { return y_[t] > 0 ? alpha_[t] < C_ : alpha_[t] > 0.0; }
  bool may_move_down(size_t t) const { return y_[t] > 0 ? alpha_[t] > 0.0 : alpha_[t] < C_; }

  // The packed copy of the variables `active` (ascending): y G from gradient_.
  void pack(const std::vector<size_t>& active) {
    const size_t m = active.size();
    index_ = active;
    within_.resize(m);
    yg_.resize(m);
    packed_diagonal_.resize(m);
    up_.resize(m);
    down_.resize(m);
    second_ = static_cast<size_t>(std::lower_bound(index_.begin(), index_.end(), boundary_) -
                                  index_.begin());
    for (size_t k = 0; k < m; ++k) {
      const size_t t = index_[k];
      within_[k] = static_cast<uint32_t>(t < boundary_ ? t : t - boundary_);
      yg_[k] = y_[t] * gradient_[t];
      packed_diagonal_[k] = diagonal_[t];
      up_[k] = may_move_up(t);
      down_[k] = may_move_down(t);
    }
  }
  // gradient_ of the active variables from their packed y G (y = +-1: exact).
  void unpack_gradient() {
    for (size_t k = 0; k < index_.size(); ++k) gradient_[index_[k]] = y_[index_[k]] * yg_[k];
  }

  // The packed arrays as the passes read them (smo_passes.hpp).
  ActiveSet active() {
    return {yg_.data(), packed_diagonal_.data(), up_.data(), down_.data(), within_.data(),
            second_, index_.size(), index_.size() == l_};
  }
  static RowSegmentsOf<Value> segments(const typename Kernel::Row& r) {
    return {r.against_first, r.against_second};
  }


  // Moves along the feasible line a_i += y_i s, a_j -= y_j s (y'a stays 0).
  // The objective along it has slope -b and curvature
  // a = K_ii + K_jj - 2 K_ij, so the unconstrained step is s = b / a, cut
  // where a_i or a_j reaches a bound (then set exactly, so the bound tests
  // see it). pi and pj are packed indices.
  void update(size_t pi, size_t pj, double b) {
    const size_t i = index_[pi];
    const size_t j = index_[pj];
    const typename Kernel::Row Ki = K_.row(static_cast<int64_t>(i));
    const typename Kernel::Row Kj = K_.row(static_cast<int64_t>(j));
    double curvature =
        diagonal_[i] + diagonal_[j] - 2.0 * K_.at(static_cast<int64_t>(i), static_cast<int64_t>(j));
    if (curvature <= 0.0) curvature = kTau;
    const double room_i = y_[i] > 0 ? C_ - alpha_[i] : alpha_[i];
    const double room_j = y_[j] > 0 ? alpha_[j] : C_ - alpha_[j];
    double s = b / curvature;
    bool i_hits_bound = false;
    bool j_hits_bound = false;
    if (s >= room_i) {
      s = room_i;
      i_hits_bound = true;
    }
    if (s >= room_j) {
      s = room_j;
      j_hits_bound = true;
      i_hits_bound = s >= room_i;
    }
    alpha_[i] = i_hits_bound ? (y_[i] > 0 ? C_ : 0.0) : alpha_[i] + y_[i] * s;
    alpha_[j] = j_hits_bound ? (y_[j] > 0 ? 0.0 : C_) : alpha_[j] - y_[j] * s;
    up_[pi] = may_move_up(i);
    down_[pi] = may_move_down(i);
    up_[pj] = may_move_up(j);
    down_[pj] = may_move_down(j);
    // G_t += Q_ti (y_i s) - Q_tj (y_j s) = y_t s (K_ti - K_tj), K symmetric;
    // so y_t G_t += s (K_ti - K_tj), the same value to the last bit
    // (y_t = +-1). Then the next step's i, from the alphas' new values.
    next_up_ = update_gradients(active(), segments(Ki), segments(Kj), s);
    next_up_known_ = true;
  }

  double rho() const { return decision_offset(alpha_, gradient_, boundary_, C_); }

  const Kernel& K_;
  size_t l_;
  size_t boundary_;  // first row of the second class
  double C_;
  // Per row, original order.
  std::vector<double> y_;
  std::vector<double> diagonal_;
  std::vector<double> alpha_;
  std::vector<double> gradient_;  // stale for active variables until unpack_gradient()
  // Per active variable, ascending row order.
  std::vector<size_t> index_;           // its row
  std::vector<uint32_t> within_;        // its entry in a kernel row's segment
  std::vector<double> yg_;              // y G
  std::vector<double> packed_diagonal_; // K_tt
  std::vector<unsigned char> up_;       // may move up / down
  std::vector<unsigned char> down_;
  size_t second_ = 0;  // first packed index of the second class
  bool reactivated_near_end_ = false;
  // The next step's first variable, found by the last update's pass; when
  // not known (the active set changed since), a pass of its own finds it.
  FirstChoice next_up_;
  bool next_up_known_ = false;
};

template <class Value>
SmoResult solve(const PairKernelOf<Value>& kernel, const SmoSettings& settings,
                const std::vector<double>& initial_alpha,
                const std::vector<double>& initial_gradient) {
  const int64_t l = kernel.size();
  if (kernel.first_rows < 0 || kernel.second_rows < 0 || l < 1) {
    throw SvmError("SMO needs a kernel of at least one row (got " +
                   std::to_string(kernel.first_rows) + " + " + std::to_string(kernel.second_rows) +
                   ")");
  }
  if (!(settings.C > 0.0) || !std::isfinite(settings.C) || !(settings.eps > 0.0) ||
      settings.max_iterations < 0) {
    throw SvmError("SMO needs C > 0, eps > 0 and a non-negative iteration limit");
  }
  const int64_t limit =
      settings.max_iterations > 0 ? settings.max_iterations : std::max<int64_t>(10000000, 100 * l);
  Smo<Value> smo(kernel, settings.C);
  if (!initial_alpha.empty()) {
    if (static_cast<int64_t>(initial_alpha.size()) != l) {
      throw SvmError("SMO's starting point has " + std::to_string(initial_alpha.size()) +
                     " values for " + std::to_string(l) + " rows");
    }
    for (const double a : initial_alpha) {
      if (!(a >= 0.0 && a <= settings.C)) {
        throw SvmError("SMO's starting point has a value outside [0, C]");
      }
    }
    if (initial_gradient.empty()) {
      smo.seed(initial_alpha);
    } else {
      if (initial_gradient.size() != initial_alpha.size()) {
        throw SvmError("SMO's starting gradient has " + std::to_string(initial_gradient.size()) +
                       " values for " + std::to_string(l) + " rows");
      }
      for (const double g : initial_gradient) {
        if (!std::isfinite(g)) throw SvmError("SMO's starting gradient is not finite");
      }
      smo.seed(initial_alpha, initial_gradient);
    }
  } else if (!initial_gradient.empty()) {
    throw SvmError("SMO's starting gradient needs its starting point");
  }
  // Shrink every min(l, 1000) iterations, as libsvm does.
  const int64_t shrink_interval = std::min<int64_t>(l, 1000);
  int64_t until_shrink = shrink_interval;
  int64_t iterations = 0;
  while (iterations < limit) {
    if (settings.shrinking && --until_shrink == 0) {
      smo.shrink(settings.eps);
      until_shrink = shrink_interval;
    }
    if (!smo.step(settings.eps)) {
      // Optimal on the active set: check it on all of them before stopping.
      if (smo.all_active()) return smo.finish(iterations, true);
      smo.reactivate_all();
      until_shrink = shrink_interval;
      continue;
    }
    ++iterations;
  }
  return smo.finish(iterations, false);
}

}  // namespace

SmoResult solve_smo(const float* kernel, int64_t l, int64_t positives,
                    const SmoSettings& settings) {
  if (l < 1 || positives < 0 || positives > l || !kernel) {
    throw SvmError("SMO needs a kernel of at least one row and at most l positive rows (l = " +
                   std::to_string(l) + ", positives = " + std::to_string(positives) + ")");
  }
  return solve_smo(PairKernel::dense(kernel, l, positives), settings);
}

SmoResult solve_smo(const PairKernel& kernel, const SmoSettings& settings,
                    const std::vector<double>& initial_alpha,
                    const std::vector<double>& initial_gradient) {
  return solve(kernel, settings, initial_alpha, initial_gradient);
}
SmoResult solve_smo(const PairKernelUnorm16& kernel, const SmoSettings& settings,
                    const std::vector<double>& initial_alpha,
                    const std::vector<double>& initial_gradient) {
  return solve(kernel, settings, initial_alpha, initial_gradient);
}

SmoResult smo_result_of(std::vector<double> alpha, std::vector<double> gradient, int64_t positives,
                        double C) {
  if (alpha.size() != gradient.size() || positives < 0 ||
      static_cast<size_t>(positives) > alpha.size()) {
    throw SvmError("an SMO result needs one gradient per alpha and at most l positive rows");
  }
  SmoResult result;
  result.rho = decision_offset(alpha, gradient, static_cast<size_t>(positives), C);
  double twice_objective = 0.0;
  for (size_t t = 0; t < alpha.size(); ++t) twice_objective += alpha[t] * (gradient[t] - 1.0);
  result.objective = 0.5 * twice_objective;
  result.alpha = std::move(alpha);
  result.gradient = std::move(gradient);
  return result;
}

}  // namespace cae::svm
