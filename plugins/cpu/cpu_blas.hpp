// The SGEMM every matrix product of this backend goes through (OpenBLAS via
// CBLAS), with the checks and the threading policy that go with it.
#pragma once

#include <cblas.h>

#include <climits>
#include <cstdint>
#include <initializer_list>
#include <string>

#include "plugin_support.hpp"

namespace cae_cpu {

// c[m,n] = op(a)[m,k] · op(b)[k,n] + beta · c for row-major matrices, where
// op(a) = a^T when transpose_a (a is then stored [k,m]), likewise for b.
// beta = 0 overwrites c (OpenBLAS never reads c then); beta = 1 accumulates.
inline void gemm(bool transpose_a, bool transpose_b, int64_t m, int64_t n, int64_t k,
                 const float* a, int64_t lda, const float* b, int64_t ldb, float beta, float* c,
                 int64_t ldc) noexcept {
  cblas_sgemm(CblasRowMajor, transpose_a ? CblasTrans : CblasNoTrans,
              transpose_b ? CblasTrans : CblasNoTrans, static_cast<blasint>(m),
              static_cast<blasint>(n), static_cast<blasint>(k), 1.0f, a, static_cast<blasint>(lda),
              b, static_cast<blasint>(ldb), beta, c, static_cast<blasint>(ldc));
}

// CBLAS takes 32-bit sizes: an op whose matrices are larger is refused up
// front instead of being silently truncated.
inline void require_blas_sizes(const char* op, std::initializer_list<int64_t> sizes) {
  for (int64_t size : sizes) {
    if (size > INT_MAX) {
      cae_plugin::fail(CAE_STATUS_UNSUPPORTED, std::string(op) + ": a matrix dimension of " +
                                                   std::to_string(size) +
                                                   " exceeds what CBLAS can address");
    }
  }
}

// OpenBLAS starts its own thread pool. This backend parallelises with OpenMP
// around single-threaded GEMMs instead: two pools would oversubscribe the
// cores, and a GEMM split by OpenBLAS depends on its thread count. The
// setting is process-wide, which is what we want for every CPU context.
inline void use_single_threaded_blas() noexcept { openblas_set_num_threads(1); }

}  // namespace cae_cpu
