// One warp-wide TF32 tensor-core step (mma.sync m16n8k8, compute capability
// 8.0 and later) and the operand rounding it takes, for hand-written
// products such as the TF32 convolutions' short-K product
// (tf32_conv/short_k_product.cu); and the same step on FP32 operands split
// into two TF32 terms each, for products that must stay as exact as FP32
// (v4's thin-input and last-layer kernels).
//
// Fragment roles (PTX ISA, "Matrix Fragments for mma.m16n8k8" with .tf32),
// with g = lane / 4 and t = lane % 4:
//   A (16 x 8, row-major): a0 = A[g][t],  a1 = A[g + 8][t],
//                          a2 = A[g][t + 4], a3 = A[g + 8][t + 4]
//   B (8 x 8, column):     b0 = B[t][g],  b1 = B[t + 4][g]
//   C (16 x 8):            c0 = C[g][2t], c1 = C[g][2t + 1],
//                          c2 = C[g + 8][2t], c3 = C[g + 8][2t + 1]
#pragma once

#include <cstdint>

namespace cae_plugin {
namespace cuda {

// value rounded to TF32 (10-bit mantissa), to nearest with ties away from zero.
__device__ __forceinline__ uint32_t tf32_of(float value) {
  uint32_t rounded;
  asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(rounded) : "f"(value));
  return rounded;
}

// c += A * B on one 16 x 8 x 8 tile. Callers launch only code compiled for
// compute capability 8.0 or later (they check the kernel's ptxVersion).
__device__ __forceinline__ void mma_m16n8k8_tf32(float (&c)[4], const uint32_t (&a)[4], uint32_t b0,
                                                 uint32_t b1) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile(
      "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
      "{%8, %9}, {%0, %1, %2, %3};"
      : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
#else
  __trap();
#endif
}

// An FP32 value as two TF32 terms, hi = tf32(v) and lo = tf32(v - hi): their
// sum carries about 21 of the value's 24 mantissa bits.
struct Tf32Terms {
  uint32_t hi, lo;
};

__device__ __forceinline__ Tf32Terms tf32_terms(float value) {
  const uint32_t hi = tf32_of(value);
  return Tf32Terms{hi, tf32_of(value - __uint_as_float(hi))};
}

// c += A * B with both operands as two TF32 terms: the three products that
// matter, smallest first (lo * hi, hi * lo, hi * hi); the dropped lo * lo is
// below FP32's rounding. About as exact as FP32 multiply-adds, at three
// tensor-core steps.
__device__ __forceinline__ void mma_m16n8k8_tf32x3(float (&c)[4], const uint32_t (&a_hi)[4],
                                                   const uint32_t (&a_lo)[4], const Tf32Terms& b0,
                                                   const Tf32Terms& b1) {
  mma_m16n8k8_tf32(c, a_lo, b0.hi, b1.hi);
  mma_m16n8k8_tf32(c, a_hi, b0.lo, b1.lo);
  mma_m16n8k8_tf32(c, a_hi, b0.hi, b1.hi);
}

}  // namespace cuda
}  // namespace cae_plugin
