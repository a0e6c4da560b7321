#include "compare.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "report.hpp"
#include "suite.hpp"

namespace conformance {
namespace {

// "[n,c,i,j]" of a flat row-major index.
std::string index_str(const Dims& dims, size_t flat) {
  if (dims.empty()) return std::to_string(flat);
  std::vector<int64_t> at(dims.size());
  for (size_t d = dims.size(); d-- > 0;) {
    at[d] = static_cast<int64_t>(flat) % dims[d];
    flat /= static_cast<size_t>(dims[d]);
  }
  return dims_str(at);
}

}  // namespace

bool expect_close(const std::string& op, const std::string& what, const std::vector<float>& got,
                  const cae_ref::Vec& want, const Dims& dims) {
  if (got.size() != want.size()) {
    record(false, op, what, "size mismatch");
    explain("got " + std::to_string(got.size()) + " elements, expected " +
            std::to_string(want.size()));
    return false;
  }
  size_t not_finite = 0, first_not_finite = 0, worst = 0;
  double diff_sq = 0.0, want_sq = 0.0, worst_diff = -1.0;
  for (size_t i = 0; i < got.size(); ++i) {
    if (!std::isfinite(got[i])) {
      if (not_finite++ == 0) first_not_finite = i;
      continue;
    }
    const double diff = std::abs(double(got[i]) - want[i]);
    diff_sq += diff * diff;
    want_sq += want[i] * want[i];
    if (diff > worst_diff) {
      worst_diff = diff;
      worst = i;
    }
  }
  const double tolerance = suite().tolerance;
  if (not_finite > 0) {
    record(false, op, what, "rel_err nan");
    explain(std::to_string(not_finite) + " of " + std::to_string(got.size()) +
            " elements are NaN/Inf (unwritten or poisoned?), first at " +
            index_str(dims, first_not_finite) + " = " + std::to_string(got[first_not_finite]) +
            ", expected " + std::to_string(want[first_not_finite]));
    return false;
  }
  // An all-zero reference (e.g. a gradient that must vanish) compares absolutely.
  const double rel_err = std::sqrt(diff_sq) / (want_sq > 0.0 ? std::sqrt(want_sq) : 1.0);
  const bool ok = rel_err <= tolerance;
  record(ok, op, what, "rel_err " + sci(rel_err) + " <= " + sci(tolerance));
  if (!ok) {
    explain("largest difference at " + index_str(dims, worst) + ": got " +
            std::to_string(got[worst]) + ", expected " + std::to_string(want[worst]));
  }
  return ok;
}

bool expect_identical(const std::string& op, const std::string& what,
                      const std::vector<float>& first, const std::vector<float>& second) {
  const bool same = first.size() == second.size() &&
                    std::memcmp(first.data(), second.data(), first.size() * sizeof(float)) == 0;
  size_t differing = 0, first_diff = 0;
  for (size_t i = 0; i < first.size() && i < second.size(); ++i) {
    if (std::memcmp(&first[i], &second[i], sizeof(float)) != 0 && differing++ == 0) first_diff = i;
  }
  record(same, op, what, same ? "bit-identical" : std::to_string(differing) + " elements differ");
  if (!same && differing > 0) {
    explain("first at flat index " + std::to_string(first_diff) + ": " +
            std::to_string(first[first_diff]) + " vs " + std::to_string(second[first_diff]));
  }
  return same;
}

bool expect_gradient(const std::string& op, const std::string& what, double numeric,
                     double analytic) {
  const double scale = std::max(std::abs(numeric), std::abs(analytic));
  const double rel_err = scale > 0.0 ? std::abs(numeric - analytic) / scale : 0.0;
  const bool ok = std::isfinite(numeric) && std::isfinite(analytic) && scale > 0.0 &&
                  rel_err <= kGradientTolerance;
  record(ok, op, what, "fd_err " + sci(rel_err) + " <= " + sci(kGradientTolerance));
  if (!ok) {
    explain("finite difference " + std::to_string(numeric) + ", backward op " +
            std::to_string(analytic));
  }
  return ok;
}

}  // namespace conformance
