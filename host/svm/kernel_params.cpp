#include "svm/kernel_params.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <vector>

#include "common/float_range.hpp"
#include "common/parallel.hpp"
#include "svm/svm_error.hpp"

namespace cae::svm {

KernelKind parse_kernel_kind(const std::string& text) {
  if (text == "rbf") return KernelKind::Rbf;
  if (text == "linear") return KernelKind::Linear;
  throw SvmError("unknown SVM kernel '" + text + "' (choose rbf or linear)");
}

const char* kernel_kind_name(KernelKind kind) { return kind == KernelKind::Rbf ? "rbf" : "linear"; }

cae_kernel_kind backend_kernel_kind(KernelKind kind) {
  return kind == KernelKind::Rbf ? CAE_KERNEL_RBF : CAE_KERNEL_LINEAR;
}

GammaPolicy GammaPolicy::parse(const std::string& text) {
  GammaPolicy policy;
  if (text == "auto") {
    policy.mode = Mode::Auto;
  } else if (text == "scale") {
    policy.mode = Mode::Scale;
  } else {
    char* end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || !std::isfinite(value) || value <= 0.0) {
      throw SvmError("bad SVM gamma '" + text + "' (use auto, scale or a positive number)");
    }
    // The kernels compute in float: a gamma outside its normal range would
    // become infinity or 0 there and fail only after the work.
    if (!fits_float(value)) {
      throw SvmError("SVM gamma '" + text + "' is outside the range of a float (" +
                     kFloatRangeText + ")");
    }
    policy.mode = Mode::Value;
    policy.value = value;
  }
  return policy;
}

std::string GammaPolicy::text() const {
  switch (mode) {
    case Mode::Auto:
      return "auto";
    case Mode::Scale:
      return "scale";
    case Mode::Value:
      break;
  }
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.9g", value);
  return buffer;
}

namespace {

// Variance of all the values of `rows` of `train` after `standardizer`, in double.
double value_variance(const FeatureSet& train, const std::vector<int64_t>& rows,
                      const Standardizer& standardizer, int threads) {
  // Fixed parts merged in order: the same gamma for any thread count.
  constexpr int64_t kParts = 64;
  std::vector<double> sums(kParts, 0.0), squares(kParts, 0.0);
  const int64_t count = static_cast<int64_t>(rows.size());
  const int64_t parts = for_each_fixed_part(
      resolve_thread_count(threads), count, kParts, [&](int64_t part, int64_t begin, int64_t end) {
        std::vector<float> row(static_cast<size_t>(train.dim));
        double s = 0.0, q = 0.0;
        for (int64_t i = begin; i < end; ++i) {
          copy_standardized_rows(train, standardizer, rows[static_cast<size_t>(i)], 1, row.data());
          for (float x : row) {
            s += x;
            q += static_cast<double>(x) * x;
          }
        }
        sums[static_cast<size_t>(part)] = s;
        squares[static_cast<size_t>(part)] = q;
      });
  double sum = 0.0, sum_squares = 0.0;
  for (int64_t part = 0; part < parts; ++part) {
    sum += sums[static_cast<size_t>(part)];
    sum_squares += squares[static_cast<size_t>(part)];
  }
  const double n = static_cast<double>(count) * static_cast<double>(train.dim);
  const double mean = sum / n;
  return std::max(0.0, sum_squares / n - mean * mean);
}

}  // namespace

double resolve_gamma(const GammaPolicy& policy, const FeatureSet& train,
                     const Standardizer& standardizer, int threads) {
  if (policy.mode != GammaPolicy::Mode::Scale)
    return resolve_gamma(policy, train, {}, standardizer);
  return resolve_gamma(policy, train, all_rows(train), standardizer, threads);
}

double resolve_gamma(const GammaPolicy& policy, const FeatureSet& train,
                     const std::vector<int64_t>& rows, const Standardizer& standardizer,
                     int threads) {
  const double dim = static_cast<double>(train.dim);
  switch (policy.mode) {
    case GammaPolicy::Mode::Value:
      return policy.value;
    case GammaPolicy::Mode::Auto:
      return 1.0 / dim;
    case GammaPolicy::Mode::Scale:
      break;
  }
  if (rows.empty()) throw SvmError("gamma 'scale' needs a non-empty training set");
  const double variance = value_variance(train, rows, standardizer, threads);
  return variance > 0.0 ? 1.0 / (dim * variance) : 1.0 / dim;
}

}  // namespace cae::svm
