#include "device_data.hpp"

#include <limits>

#include "suite.hpp"

namespace conformance {

int64_t count_of(const Dims& dims) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  return n;
}

std::string dims_str(const Dims& dims) {
  std::string text = "[";
  for (size_t i = 0; i < dims.size(); ++i) text += (i ? "," : "") + std::to_string(dims[i]);
  return text + "]";
}

cae::Tensor upload_tensor(const Dims& dims, const std::vector<float>& values) {
  cae::Tensor tensor = ctx().alloc(dims);
  tensor.upload(values);
  return tensor;
}

std::vector<float> poison_values(int64_t count) {
  const float pattern[3] = {std::numeric_limits<float>::quiet_NaN(), 1e30f, -1e30f};
  std::vector<float> values(static_cast<size_t>(count));
  for (size_t i = 0; i < values.size(); ++i) values[i] = pattern[i % 3];
  return values;
}

void poison(cae::Tensor& tensor) { tensor.upload(poison_values(tensor.count())); }

cae::Tensor poisoned_tensor(const Dims& dims) {
  cae::Tensor tensor = ctx().alloc(dims);
  poison(tensor);
  return tensor;
}

cae_ref::Vec widen(const std::vector<float>& values) {
  return cae_ref::Vec(values.begin(), values.end());
}

double dot(const std::vector<float>& a, const std::vector<float>& b) {
  double sum = 0.0;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) sum += double(a[i]) * double(b[i]);
  return sum;
}

}  // namespace conformance
