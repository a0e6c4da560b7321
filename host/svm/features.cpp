#include "svm/features.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "common/parallel.hpp"
#include "svm/svm_error.hpp"

namespace cae::svm {

void FeatureSet::check(const std::string& what, bool need_labels) const {
  if (rows < 0 || dim <= 0) {
    throw SvmError(what + ": " + std::to_string(rows) + " rows of dimension " +
                   std::to_string(dim));
  }
  if (values.size() != static_cast<size_t>(rows * dim)) {
    throw SvmError(what + ": " + std::to_string(values.size()) + " values for " +
                   std::to_string(rows) + " rows of dimension " + std::to_string(dim));
  }
  if ((need_labels || !labels.empty()) && labels.size() != static_cast<size_t>(rows)) {
    throw SvmError(what + ": " + std::to_string(labels.size()) + " labels for " +
                   std::to_string(rows) + " rows");
  }
}

Standardizer::Standardizer(std::vector<float> mean, std::vector<float> scale)
    : mean_(std::move(mean)), scale_(std::move(scale)) {
  if (mean_.size() != scale_.size()) {
    throw SvmError("standardizer: " + std::to_string(mean_.size()) + " means but " +
                   std::to_string(scale_.size()) + " scales");
  }
  for (size_t k = 0; k < scale_.size(); ++k) {
    if (!(scale_[k] > 0.0f) || !std::isfinite(scale_[k]) || !std::isfinite(mean_[k])) {
      throw SvmError("standardizer: dimension " + std::to_string(k) +
                     " has a non-finite mean or a scale that is not positive");
    }
  }
}

std::vector<int64_t> all_rows(const FeatureSet& set) {
  std::vector<int64_t> rows(static_cast<size_t>(std::max<int64_t>(set.rows, 0)));
  for (size_t i = 0; i < rows.size(); ++i) rows[i] = static_cast<int64_t>(i);
  return rows;
}

Standardizer Standardizer::fit(const FeatureSet& train, int threads) {
  train.check("standardizer training set", false);
  return fit(train, all_rows(train), threads);
}

Standardizer Standardizer::fit(const FeatureSet& train, const std::vector<int64_t>& rows,
                               int threads) {
  train.check("standardizer training set", false);
  if (rows.empty()) throw SvmError("standardizer: the training set is empty");
  const size_t dim = static_cast<size_t>(train.dim);
  // Partial sums in double over fixed parts of the rows, merged in part
  // order: float sums over 50,000 rows would lose digits, and the result must
  // not depend on the thread count (ranks of a group fit the same one). Sums
  // are of x - shift (the first row), which keeps sum_squares / n - mean^2
  // from cancelling when |mean| >> std.
  const float* shift = train.row(rows[0]);
  const int64_t count = static_cast<int64_t>(rows.size());
  constexpr int64_t kParts = 64;
  std::vector<std::vector<double>> sums(kParts), squares(kParts);
  const int64_t parts = for_each_fixed_part(
      resolve_thread_count(threads), count, kParts, [&](int64_t part, int64_t begin, int64_t end) {
        std::vector<double> s(dim, 0.0), q(dim, 0.0);
        for (int64_t i = begin; i < end; ++i) {
          const float* x = train.row(rows[static_cast<size_t>(i)]);
          for (size_t k = 0; k < dim; ++k) {
            const double centred = static_cast<double>(x[k]) - shift[k];
            s[k] += centred;
            q[k] += centred * centred;
          }
        }
        sums[static_cast<size_t>(part)] = std::move(s);
        squares[static_cast<size_t>(part)] = std::move(q);
      });
  std::vector<double> sum(dim, 0.0), sum_squares(dim, 0.0);
  for (int64_t part = 0; part < parts; ++part) {
    for (size_t k = 0; k < dim; ++k) {
      sum[k] += sums[static_cast<size_t>(part)][k];
      sum_squares[k] += squares[static_cast<size_t>(part)][k];
    }
  }
  std::vector<float> mean(dim), scale(dim);
  const double n = static_cast<double>(count);
  for (size_t k = 0; k < dim; ++k) {
    const double shifted_mean = sum[k] / n;
    const double variance = std::max(0.0, sum_squares[k] / n - shifted_mean * shifted_mean);
    const double deviation = std::sqrt(variance);
    mean[k] = static_cast<float>(shift[k] + shifted_mean);
    scale[k] = deviation < kMinStd ? 1.0f : static_cast<float>(deviation);
  }
  return Standardizer(std::move(mean), std::move(scale));
}

void Standardizer::apply(float* rows, int64_t count) const {
  if (empty()) return;
  const size_t dim = mean_.size();
  for (int64_t i = 0; i < count; ++i) {
    float* x = rows + static_cast<size_t>(i) * dim;
    for (size_t k = 0; k < dim; ++k) x[k] = (x[k] - mean_[k]) / scale_[k];
  }
}

void copy_standardized_rows(const FeatureSet& set, const Standardizer& standardizer, int64_t first,
                            int64_t count, float* out) {
  std::memcpy(out, set.row(first), static_cast<size_t>(count * set.dim) * sizeof(float));
  standardizer.apply(out, count);
}

}  // namespace cae::svm
