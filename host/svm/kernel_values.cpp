#include "svm/kernel_values.hpp"

#include <algorithm>
#include <cstring>

#include "common/parallel.hpp"

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

namespace {

// Converts `count` floats from `in` to `out`, naming bad entries from `first`
// on. Chunks through a buffer, read then written with memcpy, so `out` may be
// `in` itself: unorm16 value i lands at byte 2 i, which the floats read so
// far (bytes < 4 (i + 1)) always cover, and memcpy keeps the compiler from
// assuming the float and the uint16_t views of the memory are apart.
void convert_range(const unsigned char* in, size_t count, unsigned char* out, size_t first) {
  constexpr size_t kChunk = 2048;
  float values[kChunk];
  uint16_t rounded[kChunk];
  for (size_t start = 0; start < count; start += kChunk) {
    const size_t n = count - start < kChunk ? count - start : kChunk;
    std::memcpy(values, in + start * sizeof(float), n * sizeof(float));
    // A chunk wholly in [0, 1] (NaN is not) is rounded without a branch per
    // value, which the compiler vectorises: the producer converts every
    // kernel block on its own clock.
    bool in_range = true;
    for (size_t k = 0; k < n; ++k) in_range &= (values[k] >= 0.0f) & (values[k] <= 1.0f);
    if (in_range) {
      for (size_t k = 0; k < n; ++k) rounded[k] = round_unorm16(values[k]);
    } else {
      for (size_t k = 0; k < n; ++k) {
        try {
          rounded[k] = to_unorm16(values[k]);
        } catch (const SvmError& e) {
          throw SvmError(std::string(e.what()) + " (entry " + std::to_string(first + start + k) +
                         ")");
        }
      }
    }
    std::memcpy(out + start * sizeof(uint16_t), rounded, n * sizeof(uint16_t));
  }
}

}  // namespace

uint16_t* convert_to_unorm16(float* values, size_t count) {
  unsigned char* bytes = reinterpret_cast<unsigned char*>(values);
  convert_range(bytes, count, bytes, 0);
  return reinterpret_cast<uint16_t*>(values);
}

void convert_to_unorm16(const float* in, size_t count, uint16_t* out, int threads) {
  // Slices of whole chunks, one per thread: apart, so no thread writes what
  // another still reads (the caller's buffers do not overlap).
  constexpr int64_t kSlice = 1 << 16;
  const int64_t slices = static_cast<int64_t>((count + kSlice - 1) / kSlice);
  parallel_chunks(threads, slices, [&](int64_t begin, int64_t end) {
    const size_t first = static_cast<size_t>(begin * kSlice);
    const size_t last = std::min(count, static_cast<size_t>(end * kSlice));
    convert_range(reinterpret_cast<const unsigned char*>(in + first), last - first,
                  reinterpret_cast<unsigned char*>(out + first), first);
  });
}

}  // namespace cae::svm
