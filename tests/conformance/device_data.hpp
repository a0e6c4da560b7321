// Moving data between the suite and the backend: tensors made from host
// vectors, poisoned outputs, and float64 copies for the reference.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "plugin/context.hpp"
#include "reference_ops.hpp"

namespace conformance {

using Dims = std::vector<int64_t>;

int64_t count_of(const Dims& dims);
std::string dims_str(const Dims& dims);  // "[3,1,7,5]"

// A tensor of the context under test holding `values`.
cae::Tensor upload_tensor(const Dims& dims, const std::vector<float>& values);

// Output tensors are poisoned before every call so that an element the op
// forgets to write, or accumulates into, cannot pass: the pattern is NaN,
// +1e30, -1e30 repeating, which also defeats max/min-style updates that skip NaN.
std::vector<float> poison_values(int64_t count);
void poison(cae::Tensor& tensor);
cae::Tensor poisoned_tensor(const Dims& dims);

cae_ref::Vec widen(const std::vector<float>& values);

// sum a[i] * b[i] in float64.
double dot(const std::vector<float>& a, const std::vector<float>& b);

}  // namespace conformance
