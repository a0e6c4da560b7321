#include "compare.hpp"

#include <cmath>
#include <cstring>
#include <limits>

#include "error_bounds.hpp"
#include "plugin/backend_error.hpp"
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

std::string exact(double value) {
  char text[40];
  std::snprintf(text, sizeof text, "%.9g", value);
  return text;
}

}  // namespace

bool expect_within(const std::string& op, const std::string& what, const std::vector<float>& got,
                   const cae_ref::Vec& want, const cae_ref::Vec& scale, double tolerance,
                   const Dims& dims) {
  if (got.size() != want.size() || scale.size() != want.size()) {
    record(false, op, what, "size mismatch");
    explain("got " + std::to_string(got.size()) + " elements, expected " +
            std::to_string(want.size()));
    return false;
  }
  size_t not_finite = 0, first_not_finite = 0, worst = 0, over = 0;
  double worst_ratio = 0.0;
  for (size_t i = 0; i < got.size(); ++i) {
    if (!std::isfinite(got[i])) {
      if (not_finite++ == 0) first_not_finite = i;
      continue;
    }
    const double err = std::abs(double(got[i]) - want[i]);
    const double bound = tolerance * scale[i];
    // err / bound, with 0/0 = 0 (exact where exactness is required) and x/0 = inf.
    const double ratio =
        err == 0.0 ? 0.0 : (bound > 0.0 ? err / bound : std::numeric_limits<double>::infinity());
    if (ratio > 1.0) ++over;
    if (ratio > worst_ratio || (i == 0 && ratio == 0.0)) {
      worst_ratio = ratio;
      worst = i;
    }
  }
  if (not_finite > 0) {
    record(false, op, what, "NaN/Inf in output", std::numeric_limits<double>::infinity());
    explain(std::to_string(not_finite) + " of " + std::to_string(got.size()) +
            " elements are NaN/Inf (unwritten or poisoned?), first at " +
            index_str(dims, first_not_finite) + " = " + exact(got[first_not_finite]) +
            ", expected " + exact(want[first_not_finite]));
    return false;
  }
  const bool ok = over == 0;
  record(ok, op, what, "err/bound " + sci(worst_ratio) + " <= 1 (tol " + sci(tolerance) + ")",
         worst_ratio);
  if (!ok) {
    explain(std::to_string(over) + " of " + std::to_string(got.size()) +
            " elements out of bound; worst at " + index_str(dims, worst) + ": got " +
            exact(got[worst]) + ", expected " + exact(want[worst]) + ", bound " +
            sci(tolerance * scale[worst]) + " (tol " + sci(tolerance) + " x scale " +
            sci(scale[worst]) + ")");
  }
  return ok;
}

bool expect_selected(const std::string& op, const std::string& what, const std::vector<float>& got,
                     const cae_ref::Vec& want, const Dims& dims) {
  return expect_within(op, what, got, want, bounds::magnitude(want), elementwise_tolerance(), dims);
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
    explain("first at flat index " + std::to_string(first_diff) + ": " + exact(first[first_diff]) +
            " vs " + exact(second[first_diff]));
  }
  return same;
}

bool expect_refused_call(const std::string& op, const std::string& what, cae_status status) {
  const char* message = table().last_error(ctx().handle());
  const bool named = message != nullptr && message[0] != '\0';
  const bool invalid = status == CAE_STATUS_INVALID_ARGUMENT;
  return record(invalid && named, op, what,
                invalid ? (named ? "refused" : "refused without a message")
                        : std::string("answered ") + cae::status_name(status));
}

namespace {

// Every value of `tensors`, one after another.
std::vector<float> contents(const std::vector<const cae::Tensor*>& tensors) {
  std::vector<float> values;
  for (const cae::Tensor* tensor : tensors) {
    const std::vector<float> part = download(*tensor);
    values.insert(values.end(), part.begin(), part.end());
  }
  return values;
}

}  // namespace

bool expect_refused_untouched(const std::string& op, const std::string& what,
                              const std::function<cae_status()>& call,
                              const std::vector<const cae::Tensor*>& reachable) {
  const std::vector<float> before = contents(reachable);
  const bool refused = expect_refused_call(op, what, call());
  const bool untouched =
      expect_identical(op, what + ": nothing written", before, contents(reachable));
  return refused && untouched;
}

}  // namespace conformance
