#include "device_data.hpp"

#include <algorithm>
#include <cstring>
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

namespace {

// 4 KiB of sentinels on each side: far more than an off-by-a-few write, and
// writes into the zone never reach the allocator's own bookkeeping.
constexpr size_t kGuardFloats = 1024;
constexpr uint32_t kSentinelBits = 0x7fa5c3e1u;  // a NaN no arithmetic produces

float sentinel() {
  float value;
  std::memcpy(&value, &kSentinelBits, sizeof value);
  return value;
}

// [guard | payload | guard], the payload filled with `payload`.
std::vector<float> guarded_buffer(const std::vector<float>& payload) {
  std::vector<float> buffer(payload.size() + 2 * kGuardFloats, sentinel());
  std::copy(payload.begin(), payload.end(), buffer.begin() + kGuardFloats);
  return buffer;
}

// Elements of the zone [from, to) that no longer hold the sentinel.
size_t overwritten(const std::vector<float>& buffer, size_t from, size_t to) {
  size_t changed = 0;
  for (size_t i = from; i < to; ++i) {
    if (std::memcmp(&buffer[i], &kSentinelBits, sizeof(float)) != 0) ++changed;
  }
  return changed;
}

void check_guards(const std::vector<float>& buffer, const char* call) {
  const size_t before = overwritten(buffer, 0, kGuardFloats);
  const size_t after = overwritten(buffer, buffer.size() - kGuardFloats, buffer.size());
  if (before + after == 0) return;
  throw GuardViolation(std::string(call) + " wrote outside the host buffer it was given: " +
                       std::to_string(before) + " floats before its start and " +
                       std::to_string(after) + " past its end (guard zone overwritten)");
}

}  // namespace

GuardViolation::GuardViolation(const std::string& what) : std::runtime_error(what) {}

void upload(cae::Tensor& tensor, const std::vector<float>& values) {
  const std::vector<float> buffer = guarded_buffer(values);
  tensor.upload(buffer.data() + kGuardFloats, values.size());
  check_guards(buffer, "tensor_upload");
  if (!std::equal(values.begin(), values.end(), buffer.begin() + kGuardFloats,
                  [](float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; })) {
    throw GuardViolation("tensor_upload changed its source buffer (it is const)");
  }
}

std::vector<float> download(const cae::Tensor& tensor) {
  const size_t count = static_cast<size_t>(tensor.count());
  std::vector<float> buffer = guarded_buffer(std::vector<float>(count, sentinel()));
  tensor.download(buffer.data() + kGuardFloats, count);
  check_guards(buffer, "tensor_download");
  return std::vector<float>(buffer.begin() + kGuardFloats, buffer.end() - kGuardFloats);
}

cae::Tensor upload_tensor(const Dims& dims, const std::vector<float>& values) {
  return upload_tensor(dims, values, ctx());
}

cae::Tensor upload_tensor(const Dims& dims, const std::vector<float>& values,
                          cae::Context& context) {
  cae::Tensor tensor = context.alloc(dims);
  upload(tensor, values);
  return tensor;
}

std::vector<float> poison_values(int64_t count) {
  const float pattern[3] = {std::numeric_limits<float>::quiet_NaN(), 1e30f, -1e30f};
  std::vector<float> values(static_cast<size_t>(count));
  for (size_t i = 0; i < values.size(); ++i) values[i] = pattern[i % 3];
  return values;
}

void poison(cae::Tensor& tensor) { upload(tensor, poison_values(tensor.count())); }

cae::Tensor poisoned_tensor(const Dims& dims) { return poisoned_tensor(dims, ctx()); }

cae::Tensor poisoned_tensor(const Dims& dims, cae::Context& context) {
  cae::Tensor tensor = context.alloc(dims);
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
