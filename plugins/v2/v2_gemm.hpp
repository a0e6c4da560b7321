// SGEMMs stated the way the rest of v2 thinks: row-major.
//
// cuBLAS is column-major. A row-major matrix C [m][n] (leading dimension ldc)
// has the same bytes as the column-major n x m matrix C^T, so the row-major
// product C = op(A) op(B) is issued as the column-major C^T = op(B)^T op(A)^T:
// A and B swap places, m and n swap places, and each keeps its own transpose
// flag. to_column_major() is the only place that does this translation.
#pragma once

#include <cublas_v2.h>

#include <climits>
#include <cstdint>
#include <string>

#include "plugin_support.hpp"

namespace cae_v2 {

// C[m][n] = op(A)[m][k] * op(B)[k][n], alpha = 1, beta = 0 (C overwritten).
// A is stored row-major as [m][k] (or [k][m] when transpose_a), B as [k][n]
// (or [n][k] when transpose_b); ld* are row strides in floats.
struct RowMajorGemm {
  bool transpose_a = false;
  bool transpose_b = false;
  int64_t m = 0, n = 0, k = 0;
  const float* a = nullptr;
  int64_t lda = 0;
  const float* b = nullptr;
  int64_t ldb = 0;
  float* c = nullptr;
  int64_t ldc = 0;
};

// The same product as cublasSgemm's (and column-major BLAS's) arguments.
struct ColumnMajorGemm {
  bool transpose_a, transpose_b;
  int m, n, k;
  const float* a;
  int lda;
  const float* b;
  int ldb;
  float* c;
  int ldc;
};

namespace detail {
inline int blas_int(int64_t value, const char* what, const char* name) {
  if (value > INT_MAX) {
    cae_plugin::fail(CAE_STATUS_UNSUPPORTED, std::string(what) + ": GEMM dimension " + name +
                                                 " = " + std::to_string(value) +
                                                 " exceeds cuBLAS's 32-bit int");
  }
  return static_cast<int>(value);
}
}  // namespace detail

// Checks the shapes (a violation is a bug in v2: CAE_STATUS_INTERNAL) and
// translates to column-major as explained at the top of this file.
inline ColumnMajorGemm to_column_major(const RowMajorGemm& g, const char* what) {
  // Row-major storage: op(A) is m x k, so A is [m][k] (lda >= k) or [k][m] (lda >= m).
  const int64_t a_cols = g.transpose_a ? g.m : g.k;
  const int64_t b_cols = g.transpose_b ? g.k : g.n;
  if (g.m < 1 || g.n < 1 || g.k < 1 || g.lda < a_cols || g.ldb < b_cols || g.ldc < g.n || !g.a ||
      !g.b || !g.c) {
    cae_plugin::fail(CAE_STATUS_INTERNAL,
                     std::string(what) + ": inconsistent GEMM m=" + std::to_string(g.m) +
                         " n=" + std::to_string(g.n) + " k=" + std::to_string(g.k) +
                         " lda=" + std::to_string(g.lda) + " ldb=" + std::to_string(g.ldb) +
                         " ldc=" + std::to_string(g.ldc));
  }
  ColumnMajorGemm cm;
  cm.transpose_a = g.transpose_b;
  cm.transpose_b = g.transpose_a;
  cm.m = detail::blas_int(g.n, what, "n");
  cm.n = detail::blas_int(g.m, what, "m");
  cm.k = detail::blas_int(g.k, what, "k");
  cm.a = g.b;
  cm.lda = detail::blas_int(g.ldb, what, "ldb");
  cm.b = g.a;
  cm.ldb = detail::blas_int(g.lda, what, "lda");
  cm.c = g.c;
  cm.ldc = detail::blas_int(g.ldc, what, "ldc");
  return cm;
}

// Issues the product on the handle's stream (FP32, no TF32: see the handle
// setup in v2_context.cpp). `what` names the product in error messages.
void run_gemm(cublasHandle_t handle, const RowMajorGemm& g, const char* what);

}  // namespace cae_v2
