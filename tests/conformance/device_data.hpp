// Moving data between the suite and the backend: tensors made from host
// vectors, poisoned outputs, and float64 copies for the reference.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "plugin/context.hpp"
#include "reference_ops.hpp"

namespace conformance {

using Dims = std::vector<int64_t>;

int64_t count_of(const Dims& dims);
std::string dims_str(const Dims& dims);  // "[3,1,7,5]"

// A tensor of the context under test (or of `context`) holding `values`.
cae::Tensor upload_tensor(const Dims& dims, const std::vector<float>& values);
cae::Tensor upload_tensor(const Dims& dims, const std::vector<float>& values,
                          cae::Context& context);

// Every host buffer the suite hands to the backend or gets back from it lies
// between two guard zones of sentinel values. A backend that writes past
// either end of the buffer, or into an upload's source, fails the running
// check (a GuardViolation names the call) instead of corrupting the suite's
// heap and ending the run without a verdict.
class GuardViolation : public std::runtime_error {
 public:
  explicit GuardViolation(const std::string& what);
};
void upload(cae::Tensor& tensor, const std::vector<float>& values);
std::vector<float> download(const cae::Tensor& tensor);

// Output tensors are poisoned before every call so that an element the op
// forgets to write, or accumulates into, cannot pass: the pattern is NaN,
// +1e30, -1e30 repeating, which also defeats max/min-style updates that skip NaN.
std::vector<float> poison_values(int64_t count);
void poison(cae::Tensor& tensor);
cae::Tensor poisoned_tensor(const Dims& dims);
cae::Tensor poisoned_tensor(const Dims& dims, cae::Context& context);

cae_ref::Vec widen(const std::vector<float>& values);

// sum a[i] * b[i] in float64.
double dot(const std::vector<float>& a, const std::vector<float>& b);

}  // namespace conformance
