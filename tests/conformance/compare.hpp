// The verdicts of a check: closeness to the float64 reference, bit-for-bit
// equality of repeated runs, and agreement of a gradient with finite differences.
#pragma once

#include <string>
#include <vector>

#include "device_data.hpp"

namespace conformance {

// Relative L2 error ||got - want|| / ||want|| within the suite's tolerance,
// every element finite. `dims` only names the worst element when it fails.
bool expect_close(const std::string& op, const std::string& what, const std::vector<float>& got,
                  const cae_ref::Vec& want, const Dims& dims);

// The two runs of a deterministic backend agree bit for bit (memcmp).
bool expect_identical(const std::string& op, const std::string& what,
                      const std::vector<float>& first, const std::vector<float>& second);

// Loose tolerance of the finite-difference checks: float32 forwards, and the
// backends of reduced precision too.
constexpr double kGradientTolerance = 1e-2;

// |numeric - analytic| / max(|numeric|, |analytic|) within kGradientTolerance.
bool expect_gradient(const std::string& op, const std::string& what, double numeric,
                     double analytic);

}  // namespace conformance
