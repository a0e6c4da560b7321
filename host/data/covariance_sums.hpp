#pragma once
// The sums a covariance is made of, kept in double (50,000 images of values
// near 1 would lose a covariance's small eigenvalues in float): rows added
// batch by batch, then the covariance and its trace. Whitening of whole
// images and of patches learn from it.

#include <cstddef>
#include <vector>

namespace cae {

class CovarianceSums {
 public:
  explicit CovarianceSums(size_t values);

  // Adds `count` rows of values() doubles each (row-major).
  void add(const double* rows, size_t count);
  double count() const { return count_; }
  const std::vector<double>& sums() const { return sums_; }
  // The covariance of the rows added (row-major, values() x values(),
  // symmetric) and, in `trace`, its trace.
  std::vector<double> covariance(double& trace) const;

 private:
  size_t values_;
  double count_ = 0;
  std::vector<double> sums_;
  std::vector<double> products_;  // upper triangle of rows^T rows
};

}  // namespace cae
