#include "winograd_gemm.hpp"

#include <climits>
#include <string>

#include "cublas_support.hpp"

namespace cae_winograd {
namespace {
int as_blas_int(int64_t value, const char* what) {
  if (value < 0 || value > INT_MAX) {
    cae_plugin::fail(
        CAE_STATUS_UNSUPPORTED,
        std::string("GEMM ") + what + " " + std::to_string(value) + " exceeds cuBLAS's int range");
  }
  return static_cast<int>(value);
}
}  // namespace

void strided_batched_gemm(Context& ctx, cublasOperation_t trans_a, cublasOperation_t trans_b,
                          int64_t m, int64_t n, int64_t k, float alpha, GemmOperand a,
                          GemmOperand b, float beta, float* c, int64_t ldc, int64_t stride_c,
                          int64_t batch) {
  if (m == 0 || n == 0 || batch == 0) return;
  CAE_CUBLAS_CHECK(cublasSgemmStridedBatched(
      ctx.blas.get(), trans_a, trans_b, as_blas_int(m, "m"), as_blas_int(n, "n"),
      as_blas_int(k, "k"), &alpha, a.data, as_blas_int(a.ld, "lda"), a.stride, b.data,
      as_blas_int(b.ld, "ldb"), b.stride, &beta, c, as_blas_int(ldc, "ldc"), stride_c,
      as_blas_int(batch, "batch")));
}

}  // namespace cae_winograd
