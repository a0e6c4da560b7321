// cuBLAS failures as cae statuses naming the call (this plugin's own small
// copy of v2's helper: plugins may not include one another's files; a shared
// plugins/common/cuda version would serve both).
#pragma once

#include <cublas_v2.h>

namespace cae_winograd {

// Throws cae_plugin::Error unless status is CUBLAS_STATUS_SUCCESS:
// CAE_STATUS_OUT_OF_MEMORY for CUBLAS_STATUS_ALLOC_FAILED, else DEVICE_ERROR.
void check_cublas(cublasStatus_t status, const char* call, const char* file, int line);

#define WINOGRAD_CUBLAS_CHECK(call) ::cae_winograd::check_cublas((call), #call, __FILE__, __LINE__)

}  // namespace cae_winograd
