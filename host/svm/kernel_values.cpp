#include "svm/kernel_values.hpp"

#include <cstring>

#include "svm/svm_error.hpp"

namespace cae::svm {

namespace {

// How far outside [0, 1] a computed RBF value may lie and still be a
// rounding: float32's exp of a squared distance that cancelled to about
// -1e-6 relative. Anything further is not an RBF kernel's value.
constexpr float kRoundingSlack = 1e-3f;

// Round to nearest of a value in [0, 1]: the one formula both paths use.
// In double, v * 65535 + 0.5 is exact (24 + 16 bits), so the result is within
// half a step of v.
inline uint16_t round_unorm16(float unit) {
  return static_cast<uint16_t>(static_cast<int32_t>(static_cast<double>(unit) * 65535.0 + 0.5));
}

}  // namespace

KernelValues parse_kernel_values(const std::string& text) {
  if (text == "auto") return KernelValues::Auto;
  if (text == "float32") return KernelValues::Float32;
  if (text == "unorm16") return KernelValues::Unorm16;
  throw SvmError("unknown SVM kernel values '" + text + "' (choose auto, float32 or unorm16)");
}

const char* kernel_values_name(KernelValues values) {
  switch (values) {
    case KernelValues::Auto: return "auto";
    case KernelValues::Float32: return "float32";
    case KernelValues::Unorm16: return "unorm16";
  }
  return "?";
}

uint16_t to_unorm16(float value) {
  if (!(value >= -kRoundingSlack && value <= 1.0f + kRoundingSlack)) {
    throw SvmError("a kernel value of " + std::to_string(value) +
                   " does not fit unorm16 (an RBF kernel's values lie in [0, 1])");
  }
  const float clamped = value < 0.0f ? 0.0f : (value > 1.0f ? 1.0f : value);
  return round_unorm16(clamped);
}

uint16_t* convert_to_unorm16(float* values, size_t count) {
  // Chunks through a buffer, read then written with memcpy: unorm16 value i
  // lands at byte 2 i, which the floats read so far (bytes < 4 (i + 1))
  // always cover, and memcpy keeps the compiler from assuming the float and
  // the uint16_t views of the memory are apart.
  constexpr size_t kChunk = 2048;
  float in[kChunk];
  uint16_t out[kChunk];
  unsigned char* bytes = reinterpret_cast<unsigned char*>(values);
  for (size_t start = 0; start < count; start += kChunk) {
    const size_t n = count - start < kChunk ? count - start : kChunk;
    std::memcpy(in, bytes + start * sizeof(float), n * sizeof(float));
    // A chunk wholly in [0, 1] (NaN is not) is rounded without a branch per
    // value, which the compiler vectorises: the producer rewrites every
    // class's diagonal block on its own thread, so this is on its clock.
    bool in_range = true;
    for (size_t k = 0; k < n; ++k) in_range &= (in[k] >= 0.0f) & (in[k] <= 1.0f);
    if (in_range) {
      for (size_t k = 0; k < n; ++k) out[k] = round_unorm16(in[k]);
    } else {
      for (size_t k = 0; k < n; ++k) {
        try {
          out[k] = to_unorm16(in[k]);
        } catch (const SvmError& e) {
          throw SvmError(std::string(e.what()) + " (entry " + std::to_string(start + k) + ")");
        }
      }
    }
    std::memcpy(bytes + start * sizeof(uint16_t), out, n * sizeof(uint16_t));
  }
  return reinterpret_cast<uint16_t*>(values);
}

}  // namespace cae::svm
