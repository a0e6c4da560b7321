// cuBLAS for the CUDA plugins that use it (v2, winograd): failures as cae
// statuses naming the call, and a handle set up the way an FP32,
// deterministic backend needs it. Linked through cae_plugin_cublas_common, so
// the plugins without cuBLAS (naive, v1) do not depend on it.
#pragma once

#include <cublas_v2.h>

#include <cstddef>

namespace cae_plugin {
namespace cuda {

// Throws cae_plugin::Error unless status is CUBLAS_STATUS_SUCCESS:
// CAE_STATUS_OUT_OF_MEMORY for CUBLAS_STATUS_ALLOC_FAILED, else DEVICE_ERROR;
// the message names the call, cuBLAS's status and its description.
void check_cublas(cublasStatus_t status, const char* call, const char* file, int line);

#define CAE_CUBLAS_CHECK(call) ::cae_plugin::cuda::check_cublas((call), #call, __FILE__, __LINE__)

// Owns a cuBLAS handle bound to one stream, with the workspace it is given
// (the caller owns it and must outlive the handle): FP32 math only (no TF32
// or other reduced or emulated precision: the plugins declare FP32), host
// pointer mode, and no atomics in the kernels cuBLAS picks (deterministic).
class BlasHandle {
 public:
  BlasHandle(cudaStream_t stream, void* workspace, size_t workspace_bytes);
  ~BlasHandle();
  BlasHandle(const BlasHandle&) = delete;
  BlasHandle& operator=(const BlasHandle&) = delete;
  cublasHandle_t get() const { return handle_; }

 private:
  cublasHandle_t handle_ = nullptr;
};

}  // namespace cuda
}  // namespace cae_plugin
