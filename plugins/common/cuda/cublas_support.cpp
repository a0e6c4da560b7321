#include "cublas_support.hpp"

#include <string>

#include "plugin_support.hpp"

namespace cae_plugin {
namespace cuda {

void check_cublas(cublasStatus_t status, const char* call, const char* file, int line) {
  if (status == CUBLAS_STATUS_SUCCESS) return;
  std::string where(file);
  const auto slash = where.find_last_of('/');
  if (slash != std::string::npos) where = where.substr(slash + 1);
  const std::string message = std::string(call) + " failed: " + cublasGetStatusName(status) + ": " +
                              cublasGetStatusString(status) + " (" + where + ":" +
                              std::to_string(line) + ")";
  fail(status == CUBLAS_STATUS_ALLOC_FAILED ? CAE_STATUS_OUT_OF_MEMORY : CAE_STATUS_DEVICE_ERROR,
       message);
}

BlasHandle::BlasHandle(cudaStream_t stream, void* workspace, size_t workspace_bytes) {
  CAE_CUBLAS_CHECK(cublasCreate(&handle_));
  try {
    CAE_CUBLAS_CHECK(cublasSetStream(handle_, stream));
    // After cublasSetStream, which resets the workspace to the default pool.
    CAE_CUBLAS_CHECK(cublasSetWorkspace(handle_, workspace, workspace_bytes));
    CAE_CUBLAS_CHECK(cublasSetMathMode(handle_, CUBLAS_DEFAULT_MATH));
    CAE_CUBLAS_CHECK(cublasSetPointerMode(handle_, CUBLAS_POINTER_MODE_HOST));
    CAE_CUBLAS_CHECK(cublasSetAtomicsMode(handle_, CUBLAS_ATOMICS_NOT_ALLOWED));
  } catch (...) {
    cublasDestroy(handle_);
    throw;
  }
}

BlasHandle::~BlasHandle() {
  if (handle_) cublasDestroy(handle_);
}

}  // namespace cuda
}  // namespace cae_plugin
