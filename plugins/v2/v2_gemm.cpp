#include "v2_gemm.hpp"

#include "cublas_support.hpp"

namespace cae_v2 {

void run_gemm(cublasHandle_t handle, const RowMajorGemm& g, const char* what) {
  const ColumnMajorGemm cm = to_column_major(g, what);
  const float one = 1.0f, zero = 0.0f;  // host pointer mode
  const cublasStatus_t status =
      cublasSgemm(handle, cm.transpose_a ? CUBLAS_OP_T : CUBLAS_OP_N,
                  cm.transpose_b ? CUBLAS_OP_T : CUBLAS_OP_N, cm.m, cm.n, cm.k, &one, cm.a, cm.lda,
                  cm.b, cm.ldb, &zero, cm.c, cm.ldc);
  if (status != CUBLAS_STATUS_SUCCESS) {
    cae_plugin::cuda::check_cublas(status, (std::string("cublasSgemm (") + what + ")").c_str(),
                                   __FILE__, __LINE__);
  }
}

}  // namespace cae_v2
