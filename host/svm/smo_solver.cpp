#include "svm/smo_solver.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>

#include "svm/svm_error.hpp"

namespace cae::svm {

namespace {

// Curvature used when K_ii + K_jj - 2 K_ij is not positive (a kernel that is
// not quite positive semi-definite in float32): the step then goes to a bound.
constexpr double kTau = 1e-12;
constexpr double kInfinity = std::numeric_limits<double>::infinity();

// Calls body(t, K_rt) for every t of `indices` (ascending), reading row r
// as its two segments: the indices split once at the class boundary, so each
// part reads one contiguous segment (no per-entry branch).
template <class Body>
void for_each_in_row(const std::vector<size_t>& indices, size_t boundary, const PairKernel::Row& r,
                     Body&& body) {
  const auto split = std::lower_bound(indices.begin(), indices.end(), boundary);
  for (auto t = indices.begin(); t != split; ++t) body(*t, r.against_first[*t]);
  for (auto t = split; t != indices.end(); ++t) body(*t, r.against_second[*t - boundary]);
}

// The same over two rows at once: body(t, K_it, K_jt).
template <class Body>
void for_each_in_rows(const std::vector<size_t>& indices, size_t boundary, const PairKernel::Row& i,
                      const PairKernel::Row& j, Body&& body) {
  const auto split = std::lower_bound(indices.begin(), indices.end(), boundary);
  for (auto t = indices.begin(); t != split; ++t) {
    body(*t, i.against_first[*t], j.against_first[*t]);
  }
  for (auto t = split; t != indices.end(); ++t) {
    body(*t, i.against_second[*t - boundary], j.against_second[*t - boundary]);
  }
}

// The solver's state: everything in the original row order.
class Smo {
 public:
  Smo(const PairKernel& kernel, double C)
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
    active_.resize(l_);
    std::iota(active_.begin(), active_.end(), size_t{0});
  }

  // One step of SMO on the active variables. False when their KKT violation
  // is at most eps (or no pair can move).
  bool step(double eps) {
    // i: the most violating variable that may move up (y_i a_i can grow),
    // found by the last update's gradient pass when nothing changed since.
    size_t i = l_;
    double up_max = -kInfinity;  // m(a) = max over I_up of -y G
    if (next_up_.known) {
      i = next_up_.index;
      up_max = next_up_.violation;
      next_up_.known = false;
    } else {
      for (const size_t t : active_) track_up(t, up_max, i);
    }
    if (i == l_) return false;
    // j: among the variables that may move down, the one whose pairing with
    // i decreases the objective most (second order: gain b^2 / a).
    // The gains are compared as fractions, b^2 best_a >= best_b2 a (a > 0),
    // so the scan divides nowhere: a division per variable would cost more
    // than the rest of the scan.
    size_t j = l_;
    double low_max = -kInfinity;  // -M(a) = max over I_low of y G
    double best_b2 = 0.0;         // best gain = best_b2 / best_a
    double best_a = 1.0;
    const double diagonal_i = diagonal_[i];
    for_each_in_row(active_, boundary_, K_.row(static_cast<int64_t>(i)), [&](size_t t, float k_it) {
      if (!may_move_down(t)) return;
      const double yg = y_[t] * gradient_[t];
      low_max = std::max(low_max, yg);
      const double b = up_max + yg;
      if (b <= 0.0) return;
      double a = diagonal_i + diagonal_[t] - 2.0 * k_it;
      if (a <= 0.0) a = kTau;
      const double b2 = b * b;
      if (b2 * best_a >= best_b2 * a) {
        best_b2 = b2;
        best_a = a;
        j = t;
      }
    });
    if (up_max + low_max <= eps || j == l_) return false;
    update(i, j, up_max + y_[j] * gradient_[j]);
    return true;
  }

  bool all_active() const { return active_.size() == l_; }

  // The next step's i is found only by a scan of the active set as it is
  // now: shrinking, reactivation or a new start make a found one stale.
  void forget_next_up() { next_up_.known = false; }

  // Starts from `alpha` instead of 0 (checked in [0, C] by the caller): every
  // gradient from the support vectors, as reactivate_all() computes the
  // inactive ones.
  void seed(const std::vector<double>& alpha) {
    forget_next_up();
    alpha_ = alpha;
    active_.clear();  // every variable "inactive": reactivate_all() recomputes all gradients
    reactivate_all();
  }
  // The same with the start's gradient known (every variable active).
  void seed(const std::vector<double>& alpha, const std::vector<double>& gradient) {
    forget_next_up();
    alpha_ = alpha;
    gradient_ = gradient;
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
    for (const size_t t : active_) {
      if (may_move_up(t)) up_max = std::max(up_max, -y_[t] * gradient_[t]);
      if (may_move_down(t)) low_max = std::max(low_max, y_[t] * gradient_[t]);
    }
    if (!reactivated_near_end_ && up_max + low_max <= 10.0 * eps) {
      reactivated_near_end_ = true;
      reactivate_all();
    }
    size_t kept = 0;
    for (const size_t t : active_) {
      const bool up = may_move_up(t);
      const bool down = may_move_down(t);
      const double yg = y_[t] * gradient_[t];
      // Only in I_up: it could only pair with a j whose y G exceeds its own.
      // Only in I_low: it could only pair with an i whose -y G exceeds its own.
      const bool idle = (up && !down && yg > low_max) || (down && !up && -yg > up_max);
      if (!idle) active_[kept++] = t;
    }
    active_.resize(kept);
  }

  // Recomputes the inactive variables' gradients from the support vectors,
  // G_t = y_t sum_j y_j a_j K_tj - 1, and makes every variable active.
  void reactivate_all() {
    if (all_active()) return;
    forget_next_up();
    std::vector<char> is_active(l_, 0);
    for (const size_t t : active_) is_active[t] = 1;
    std::vector<size_t> support;
    for (size_t t = 0; t < l_; ++t) {
      if (alpha_[t] > 0.0) support.push_back(t);
    }
    const size_t inactive = l_ - active_.size();
    if (4 * inactive > l_) {
      // Most variables inactive: add each support vector's whole row, read
      // contiguously, into every sum at once (K symmetric: K_tj = K_jt). The
      // sums take their terms in the same order as below.
      std::vector<double> sum(l_, 0.0);
      for (const size_t j : support) {
        const double weight = y_[j] * alpha_[j];
        const PairKernel::Row row = K_.row(static_cast<int64_t>(j));
        for (size_t t = 0; t < boundary_; ++t) sum[t] += weight * static_cast<double>(row.against_first[t]);
        for (size_t t = boundary_; t < l_; ++t) {
          sum[t] += weight * static_cast<double>(row.against_second[t - boundary_]);
        }
      }
      for (size_t t = 0; t < l_; ++t) {
        if (!is_active[t]) gradient_[t] = y_[t] * sum[t] - 1.0;
      }
    } else {
      for (size_t t = 0; t < l_; ++t) {
        if (is_active[t]) continue;
        double sum = 0.0;
        for_each_in_row(
            support, boundary_, K_.row(static_cast<int64_t>(t)),
            [&](size_t j, float k_tj) { sum += y_[j] * alpha_[j] * static_cast<double>(k_tj); });
        gradient_[t] = y_[t] * sum - 1.0;
      }
    }
    active_.resize(l_);
    std::iota(active_.begin(), active_.end(), size_t{0});
  }

  SmoResult finish(int64_t iterations, bool converged) {
    reactivate_all();  // rho and the objective need every gradient
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
  // One variable of the scan for i: the last of the largest -y G in I_up.
  void track_up(size_t t, double& up_max, size_t& i) const {
    if (!may_move_up(t)) return;
    const double violation = -y_[t] * gradient_[t];
    if (violation >= up_max) {
      up_max = violation;
      i = t;
    }
  }
  bool may_move_down(size_t t) const { return y_[t] > 0 ? alpha_[t] > 0.0 : alpha_[t] < C_; }

  // Moves along the feasible line a_i += y_i s, a_j -= y_j s (y'a stays 0).
  // The objective along it has slope -b and curvature
  // a = K_ii + K_jj - 2 K_ij, so the unconstrained step is s = b / a, cut
  // where a_i or a_j reaches a bound (then set exactly, so the bound tests
  // above see it).
  void update(size_t i, size_t j, double b) {
    const PairKernel::Row Ki = K_.row(static_cast<int64_t>(i));
    const PairKernel::Row Kj = K_.row(static_cast<int64_t>(j));
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
    // G_t += Q_ti (y_i s) - Q_tj (y_j s) = y_t s (K_ti - K_tj); K symmetric.
    // The same pass finds the next step's i (the alphas have their new
    // values): one read of the active set instead of two.
    size_t next = l_;
    double next_max = -kInfinity;
    for_each_in_rows(active_, boundary_, Ki, Kj, [&](size_t t, float k_it, float k_jt) {
      gradient_[t] += y_[t] * s * (static_cast<double>(k_it) - static_cast<double>(k_jt));
      track_up(t, next_max, next);
    });
    next_up_ = {true, next, next_max};
  }

  // The decision offset: at the optimum y_t G_t = rho for every free
  // variable (averaged to spread rounding); with none free, the middle of
  // the interval the bounded variables' KKT conditions leave for it.
  double rho() const {
    double upper = kInfinity;
    double lower = -kInfinity;
    double free_sum = 0.0;
    int64_t free_count = 0;
    for (size_t t = 0; t < l_; ++t) {
      const double yg = y_[t] * gradient_[t];
      const bool at_zero = alpha_[t] <= 0.0;
      const bool at_C = alpha_[t] >= C_;
      if (!at_zero && !at_C) {
        free_sum += yg;
        ++free_count;
      } else if (may_move_up(t)) {  // rho may not exceed y G here
        upper = std::min(upper, yg);
      } else {  // may only move down: rho may not be below y G
        lower = std::max(lower, yg);
      }
    }
    return free_count > 0 ? free_sum / static_cast<double>(free_count) : 0.5 * (upper + lower);
  }

  const PairKernel& K_;
  size_t l_;
  size_t boundary_;  // first row of the second class
  double C_;
  std::vector<double> y_;
  std::vector<double> diagonal_;
  std::vector<double> alpha_;
  std::vector<double> gradient_;
  // The variables SMO still looks at, always ascending (shrinking keeps the
  // order, reactivation restores 0..l-1): for_each_in_row relies on it.
  std::vector<size_t> active_;
  bool reactivated_near_end_ = false;
  struct NextUp {
    bool known = false;
    size_t index = 0;
    double violation = 0.0;
  } next_up_;
};

}  // namespace

SmoResult solve_smo(const float* kernel, int64_t l, int64_t positives,
                    const SmoSettings& settings) {
  if (l < 1 || positives < 0 || positives > l || !kernel) {
    throw SvmError("SMO needs a kernel of at least one row and at most l positive rows (l = " +
                   std::to_string(l) + ", positives = " + std::to_string(positives) + ")");
  }
  return solve_smo(PairKernel::dense(kernel, l, positives), settings);
}

SmoResult solve_smo(const PairKernel& kernel, const SmoSettings& settings) {
  return solve_smo(kernel, settings, {});
}

SmoResult solve_smo(const PairKernel& kernel, const SmoSettings& settings,
                    const std::vector<double>& initial_alpha) {
  return solve_smo(kernel, settings, initial_alpha, {});
}

SmoResult solve_smo(const PairKernel& kernel, const SmoSettings& settings,
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
  Smo smo(kernel, settings.C);
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

}  // namespace cae::svm
