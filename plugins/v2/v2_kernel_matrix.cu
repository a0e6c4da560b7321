// The SVM kernel matrix on the GPU: the steps of v2_kernel_matrix_steps.cuh.
#include "v2_device_executor.cuh"
#include "v2_kernel_matrix_steps.cuh"

namespace cae_plugin {
namespace cuda {
namespace device_ops {

void kernel_matrix(Context& ctx, const float* x, const float* y, float* k, const KernelDims& dims,
                   int32_t kind, float gamma) {
  cae_v2::DeviceExecutor ex{ctx};
  cae_v2::kernel_matrix_steps(ex, x, y, k, dims.n, dims.m, dims.d, kind == CAE_KERNEL_RBF, gamma);
}

}  // namespace device_ops
}  // namespace cuda
}  // namespace cae_plugin
