#include "data/covariance_sums.hpp"

#include <cblas.h>

namespace cae {

CovarianceSums::CovarianceSums(size_t values)
    : values_(values), sums_(values, 0.0), products_(values * values, 0.0) {}

void CovarianceSums::add(const double* rows, size_t count) {
  if (count == 0) return;
  for (size_t i = 0; i < count; ++i) {
    for (size_t k = 0; k < values_; ++k) sums_[k] += rows[i * values_ + k];
  }
  // products (upper triangle, row-major) += rows^T rows
  cblas_dsyrk(CblasRowMajor, CblasUpper, CblasTrans, int(values_), int(count), 1.0, rows,
              int(values_), 1.0, products_.data(), int(values_));
  count_ += double(count);
}

std::vector<double> CovarianceSums::covariance(double& trace) const {
  const size_t d = values_;
  std::vector<double> covariance(d * d, 0.0);
  trace = 0;
  for (size_t r = 0; r < d; ++r) {
    for (size_t c = r; c < d; ++c) {
      const double value = products_[r * d + c] / count_ - (sums_[r] / count_) * (sums_[c] / count_);
      covariance[r * d + c] = covariance[c * d + r] = value;
    }
    trace += covariance[r * d + r];
  }
  return covariance;
}

}  // namespace cae
