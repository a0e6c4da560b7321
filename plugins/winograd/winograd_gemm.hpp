// One checked call of cuBLAS's FP32 GEMMs in column-major terms, with every
// dimension checked against cuBLAS's int range first.
#pragma once

#include <cublas_v2.h>

#include <cstdint>

#include "winograd_context.hpp"

namespace cae_winograd {

struct GemmOperand {
  const float* data;
  int64_t ld;
  int64_t stride;  // between batch members (0 for a single GEMM)
};

// C = alpha op(A) op(B) + beta C for `batch` members (column-major m x n result).
void strided_batched_gemm(Context& ctx, cublasOperation_t trans_a, cublasOperation_t trans_b,
                          int64_t m, int64_t n, int64_t k, float alpha, GemmOperand a,
                          GemmOperand b, float beta, float* c, int64_t ldc, int64_t stride_c,
                          int64_t batch);

}  // namespace cae_winograd
