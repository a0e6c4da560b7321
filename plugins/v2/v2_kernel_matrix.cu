// The SVM kernel matrix on the GPU: the steps of v2_kernel_matrix_steps.cuh.
#include "v2_device_executor.cuh"
#include "v2_kernel_matrix_steps.cuh"

namespace cae_v2 {

void kernel_matrix(Context& ctx, const float* x, const float* y, float* k,
                   const cae_plugin::KernelDims& dims, int32_t kind, float gamma) {
  DeviceExecutor ex{ctx};
  kernel_matrix_steps(ex, x, y, k, dims.n, dims.m, dims.d, kind == CAE_KERNEL_RBF, gamma);
}

}  // namespace cae_v2
