// cuBLAS calls whose failures become cae statuses with a message that names
// the call and cuBLAS's own description of the status.
#pragma once

#include <cublas_v2.h>

namespace cae_v2 {

// Throws cae_plugin::Error unless status is CUBLAS_STATUS_SUCCESS:
// CAE_STATUS_OUT_OF_MEMORY for CUBLAS_STATUS_ALLOC_FAILED, else DEVICE_ERROR.
void check_cublas(cublasStatus_t status, const char* call, const char* file, int line);

#define CAE_CUBLAS_CHECK(call) ::cae_v2::check_cublas((call), #call, __FILE__, __LINE__)

}  // namespace cae_v2
