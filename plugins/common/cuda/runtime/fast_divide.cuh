// Division by a run-time constant without the ~20-instruction integer divide:
// the index decoding of the gather kernels (pixel -> image, row, column; column
// -> tap, channel) runs once per element of matrices of up to ~10^8 elements,
// where plain `/` would cost more than the memory traffic.
//
// Method (Granlund & Montgomery): with s = ceil(log2 d) and
// m = floor(2^32 (2^s - d) / d) + 1, n / d = (umulhi(n, m) + n) >> s for every
// 0 <= n < 2^31. Callers keep their operands below 2^31 (checked on the host).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace cae_cuda {

class FastDivide {
 public:
  FastDivide() = default;
  __host__ explicit FastDivide(uint32_t divisor) : divisor_(divisor) {
    while ((uint64_t(1) << shift_) < divisor) ++shift_;
    const uint64_t one = 1;
    multiplier_ = static_cast<uint32_t>(((one << 32) * ((one << shift_) - divisor)) / divisor + 1);
    if (divisor == 1) multiplier_ = 0;
  }

  __host__ __device__ uint32_t divisor() const { return divisor_; }

  __host__ __device__ uint32_t quotient(uint32_t n) const {
    return (high_product(n, multiplier_) + n) >> shift_;
  }
  // n = q * divisor + r
  __host__ __device__ void split(uint32_t n, uint32_t& q, uint32_t& r) const {
    q = quotient(n);
    r = n - q * divisor_;
  }

 private:
  __host__ __device__ static uint32_t high_product(uint32_t a, uint32_t b) {
#ifdef __CUDA_ARCH__
    return __umulhi(a, b);
#else
    return static_cast<uint32_t>((uint64_t(a) * b) >> 32);
#endif
  }

  uint32_t divisor_ = 1;
  uint32_t multiplier_ = 0;
  uint32_t shift_ = 0;
};

}  // namespace cae_cuda
