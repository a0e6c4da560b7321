#include "winograd_cublas_check.hpp"

#include <string>

#include "plugin_support.hpp"

namespace cae_winograd {

void check_cublas(cublasStatus_t status, const char* call, const char* file, int line) {
  if (status == CUBLAS_STATUS_SUCCESS) return;
  std::string where(file);
  const auto slash = where.find_last_of('/');
  if (slash != std::string::npos) where = where.substr(slash + 1);
  cae_plugin::fail(
      status == CUBLAS_STATUS_ALLOC_FAILED ? CAE_STATUS_OUT_OF_MEMORY : CAE_STATUS_DEVICE_ERROR,
      std::string(call) + " failed: " + cublasGetStatusName(status) + " (" + where + ":" +
          std::to_string(line) + ")");
}

}  // namespace cae_winograd
