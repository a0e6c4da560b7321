// L-BFGS's memory of correction pairs (s = step, y = change of gradient)
// and the search direction -H g they give, for the linear classifier
// (svm/linear_trainer.cpp), in the vector-free form of Chen, Wang & Zhou
// (NIPS 2014): the two-loop recursion needs only dot products among the
// stored vectors and the gradient, so those are kept in small Gram
// matrices and the recursion runs on coefficients. A step then costs two
// passes over the vectors (one for the new dot products, one to form the
// direction) where the two-loop recursion made forty dependent passes, each
// a reduction no thread could start before the last had ended: with 10
// pairs of 160,000 dimensions that was 10-20 ms a step on one core.
//
// Every dot product is summed over fixed parts of the vectors, each part on
// some thread, the parts added in order: the result does not depend on the
// thread count.
#pragma once

#include <cstddef>
#include <deque>
#include <vector>

namespace cae::svm {

// |v|^2 summed over the fixed parts every pass of LbfgsMemory uses, on up to
// `threads` threads: the same value for any thread count.
double fixed_order_norm2(const std::vector<double>& v, int threads);

class LbfgsMemory {
 public:
  // Keeps at most `pairs` correction pairs; passes run on up to `threads`.
  LbfgsMemory(size_t pairs, int threads);

  // Starts from `gradient` with no pairs.
  void start(const std::vector<double>& gradient);

  // Forgets the pairs (the next direction is steepest descent).
  void forget();

  // |g|^2 of the current gradient.
  double gradient_norm2() const { return gg_; }
  bool empty() const { return pairs_.empty(); }

  // Writes -H g into `direction` and returns its slope g . direction;
  // `gradient` is the one last given to start() or advance() as the
  // current gradient.
  double direction(const std::vector<double>& gradient, std::vector<double>& direction) const;

  // After an accepted step from (theta, gradient) to (next, next_gradient):
  // the pair (next - theta, next_gradient - gradient) is stored when its
  // curvature s . y is positive (the oldest dropped beyond the limit), and
  // next_gradient becomes the current gradient. Returns whether it was kept.
  bool advance(const std::vector<double>& theta, const std::vector<double>& next,
               const std::vector<double>& gradient, const std::vector<double>& next_gradient);

 private:
  struct Pair {
    std::vector<double> s, y;
  };
  size_t limit_;
  int threads_;
  std::deque<Pair> pairs_;  // oldest first
  Pair spare_;              // storage of a dropped or refused pair, for the next
  // By position in pairs_: ss_[i][j] = s_i . s_j, sy_[i][j] = s_i . y_j,
  // yy_[i][j] = y_i . y_j; gs_[i] = g . s_i, gy_[i] = g . y_i, gg_ = g . g.
  std::vector<std::vector<double>> ss_, sy_, yy_;
  std::vector<double> gs_, gy_;
  double gg_ = 0.0;
};

}  // namespace cae::svm
