// The verdicts of a check: closeness to the float64 reference within a bound
// that follows the op's arithmetic, and bit-for-bit equality of repeated runs.
//
// The rule (docs/abi.md, "What cae-conformance requires"): every element i of
// an output must satisfy
//
//     |got_i - ref_i| <= tolerance * scale_i
//
// where ref is the float64 reference computed from the same float32 inputs and
// scale_i is the magnitude of the terms the op combines to make element i
// (for a dot product sum_k |a_k| |b_k|, for a selection |ref_i|; error_bounds.hpp
// gives each op's scale). This is the forward-error bound of the arithmetic: a
// result that cancels to almost nothing is not held to a relative error it
// cannot have, and a tiny tensor cannot flip the verdict, while an element
// that is simply wrong fails on every seed. NaN or Inf never passes.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "device_data.hpp"

namespace conformance {

// Records one check; returns whether every element is within its bound.
// `dims` only names the worst element when the check fails.
bool expect_within(const std::string& op, const std::string& what, const std::vector<float>& got,
                   const cae_ref::Vec& want, const cae_ref::Vec& scale, double tolerance,
                   const Dims& dims);

// A selection or copy (ReLU, max-pool, upsample forward): scale_i = |ref_i|,
// so an element that should be 0 must be exactly 0.
bool expect_selected(const std::string& op, const std::string& what, const std::vector<float>& got,
                     const cae_ref::Vec& want, const Dims& dims);

// A call the op must refuse: `status` is INVALID_ARGUMENT and last_error
// names why.
bool expect_refused_call(const std::string& op, const std::string& what, cae_status status);

// `call` is refused (expect_refused_call) and none of `reachable` (every
// tensor the call could write) changes: a refusal that wrote first and
// complained after would leave a caller's tensors half-updated.
bool expect_refused_untouched(const std::string& op, const std::string& what,
                              const std::function<cae_status()>& call,
                              const std::vector<const cae::Tensor*>& reachable);

// The two runs of a deterministic backend agree bit for bit (memcmp).
bool expect_identical(const std::string& op, const std::string& what,
                      const std::vector<float>& first, const std::vector<float>& second);

}  // namespace conformance
