// Matrix products through cuBLASLt, described the way cuBLAS sees them:
// column-major, D[m x n] = op(A)[m x k] * op(B)[k x n], alpha 1, beta 0.
//
// A row-major matrix M[r][c] with row stride L has the bytes of the
// column-major c x r matrix M^T with leading dimension L; the conv steps (see
// plugins/common/cuda/tf32_conv/tf32_conv_steps.cpp) state every product in
// these terms.
//
// Precision: TF32 tensor cores (CUBLAS_COMPUTE_32F_FAST_TF32) unless the call
// asks for exact FP32 (the SVM kernel matrix). When cuBLASLt has no TF32
// kernel for a call (odd leading dimensions of the tiny test shapes), it runs
// in FP32 instead. Determinism: each distinct call shape gets its algorithm
// once and keeps it, with a fixed workspace, on the context's one stream.
#pragma once

#include <cublasLt.h>
#include <cuda_runtime.h>

#include <array>
#include <cstdint>
#include <map>
#include <memory>

namespace cae_cuda {

enum class Epilogue : int32_t {
  none,
  bias,       // D += bias[row]                      (bias: m floats)
  bias_relu,  // D = max(D + bias[row], 0)
  bias_grad,  // bias_grad[j] = sum over k of op(B)[k][j]  (n floats per batch)
};

struct GemmCall {
  bool transpose_a = false, transpose_b = false;
  int64_t m = 0, n = 0, k = 0;
  const float* a = nullptr;
  int64_t lda = 0, batch_stride_a = 0;
  const float* b = nullptr;
  int64_t ldb = 0, batch_stride_b = 0;
  float* d = nullptr;
  int64_t ldd = 0, batch_stride_d = 0;
  int32_t batch = 1;
  Epilogue epilogue = Epilogue::none;
  const float* bias = nullptr;  // bias, bias_relu
  float* bias_grad = nullptr;   // bias_grad
  int64_t bias_batch_stride = 0;
  bool exact_fp32 = false;  // FP32 arithmetic instead of TF32
};

class LtGemm {
 public:
  LtGemm(cudaStream_t stream, void* workspace, size_t workspace_bytes);
  ~LtGemm();
  LtGemm(const LtGemm&) = delete;
  LtGemm& operator=(const LtGemm&) = delete;

  // Queues the product. Returns false when cuBLASLt offers no algorithm for
  // it (typically an epilogue it cannot fuse at that shape); throws on errors.
  bool run(const GemmCall& call, const char* what);

 private:
  struct Plan;
  using Key = std::array<int64_t, 22>;
  Plan* plan_for(const GemmCall& call, bool exact, const char* what);
  bool execute(Plan& plan, const GemmCall& call, const char* what);

  cublasLtHandle_t handle_ = nullptr;
  cudaStream_t stream_;
  void* workspace_;
  size_t workspace_bytes_;
  std::map<Key, std::unique_ptr<Plan>> plans_;
};

}  // namespace cae_cuda
