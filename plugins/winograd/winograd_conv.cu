// The convolutions on the GPU: per layer shape (uses_direct_path) either the
// Winograd F(4x4,3x3) steps of winograd_conv_passes.hpp or the direct path of
// winograd_direct_passes.hpp, run as CUDA kernels and cuBLAS strided-batched
// SGEMMs on the context's stream; filter transforms come from the cache.
#include <string>

#include "winograd_conv_kernels.cuh"
#include "winograd_conv_passes.hpp"
#include "winograd_direct_passes.hpp"
#include "winograd_gemm.hpp"
#include "winograd_ops.hpp"

namespace cae_winograd {
namespace {

using cae_plugin::ConvDims;

// The executor of winograd_conv_passes.hpp on ctx's stream; every launch and
// every cuBLAS call checked.
struct CudaExecutor {
  Context& ctx;

  template <class Item>
  void run(const Item& item, int threads) {
    const int64_t count = item.count();
    for_each_item_kernel<<<cae_plugin::cuda::grid_for(count, static_cast<unsigned>(threads)),
                           threads, 0, ctx.stream>>>(item, count);
    CAE_CUDA_CHECK_LAUNCH("for_each_item_kernel (a Winograd transform)");
  }

  void gemm(const GemmCall& g) {
    strided_batched_gemm(ctx, g.trans_a ? CUBLAS_OP_T : CUBLAS_OP_N,
                         g.trans_b ? CUBLAS_OP_T : CUBLAS_OP_N, g.m, g.n, g.k, 1.0f,
                         {g.a, g.lda, g.stride_a}, {g.b, g.ldb, g.stride_b}, g.beta, g.c, g.ldc,
                         g.stride_c, g.batch);
  }
};


LaunchParams params_for(const Context& c, const ConvDims& d) {
  const LaunchParams params = lookup_launch_params({d.C, d.O, d.H, d.W});
  return apply_override(params, c.launch_override);
}

// U (or the flipped U') of `w`, from the cache or transformed now.
const float* cached_filter(CudaExecutor& exec, const cae_tensor_s& w, const ConvDims& d,
                           int threads, bool flipped) {
  FilterCache& cache = flipped ? exec.ctx.flipped_filters : exec.ctx.filters;
  return cache.get(w, static_cast<size_t>(kPoints * d.O * d.C),
                   [&](float* dst) { transform_filter(exec, d, threads, w.data, dst, flipped); });
}

// db from dy (winograd_conv_kernels.cuh); plane_sums: N O floats of scratch.
void bias_gradient(Context& c, const ConvDims& d, const float* dy, float* db, float* plane_sums) {
  const int64_t planes = d.N * d.O;
  plane_sums_kernel<<<cae_plugin::cuda::grid_for(planes, kPlaneSumWarps), kPlaneSumWarps * 32, 0,
                      c.stream>>>(dy, plane_sums, planes, d.H * d.W);
  CAE_CUDA_CHECK_LAUNCH("plane_sums_kernel");
  constexpr unsigned kThreads = 256;
  image_order_sum_kernel<<<cae_plugin::cuda::grid_for(d.O, kThreads), kThreads, 0, c.stream>>>(
      plane_sums, db, d.N, d.O);
  CAE_CUDA_CHECK_LAUNCH("image_order_sum_kernel");
}

}  // namespace

void require_3x3(const ConvDims& d, const char* op) {
  if (d.K != kTaps) {
    cae_plugin::fail(CAE_STATUS_UNSUPPORTED,
                     std::string(op) +
                         ": the winograd backend computes 3x3 kernels only (w has K = " +
                         std::to_string(d.K) + ")");
  }
}

}  // namespace cae_winograd

namespace cae_plugin {
namespace cuda {
namespace device_ops {

using namespace cae_winograd;  // the Winograd and direct passes, the filter cache

void conv2d_forward(Context& c, const ConvDims& d, const cae_tensor_s& x, const cae_tensor_s& w,
                    const float* b, float* y, bool relu) {
  require_3x3(d, "conv2d_forward");
  const LaunchParams params = params_for(c, d);
  CudaExecutor exec{c};
  if (uses_direct_path({d.C, d.O, d.H, d.W})) {
    direct_forward(exec, d, x.data, w.data, b, y, relu);
    return;
  }
  const float* u = cached_filter(exec, w, d, params.transform_threads, /*flipped=*/false);
  const PassPlan plan = plan_passes(d, params);
  float* workspace = c.workspace.reserve(static_cast<size_t>(plan.forward_workspace()));
  forward_passes(exec, d, plan, params.transform_threads, x.data, u, b, y, relu, workspace);
}

void conv2d_backward(Context& c, const ConvDims& d, const cae_tensor_s& x,
                     const cae_tensor_s& w, const float* dy, float* dx, float* dw, float* db) {
  require_3x3(d, "conv2d_backward");
  const LaunchParams params = params_for(c, d);
  CudaExecutor exec{c};
  // db's per-image plane sums, where needed, go after the method's scratch.
  const int64_t plane_sum_floats = d.N * d.O;
  if (uses_direct_path({d.C, d.O, d.H, d.W})) {
    const FilterGradientPlan plan = plan_filter_gradient(d, params);
    float* workspace = c.workspace.reserve(
        static_cast<size_t>(plan.workspace() + (plan.bias_in_gemm ? 0 : plane_sum_floats)));
    direct_filter_gradient(exec, d, plan, x.data, dy, dw, db, workspace);
    if (dx) direct_data_gradient(exec, d, dy, w.data, dx);
    if (!plan.bias_in_gemm) bias_gradient(c, d, dy, db, workspace + plan.workspace());
  } else {
    const float* u_flipped =
        dx ? cached_filter(exec, w, d, params.transform_threads, /*flipped=*/true) : nullptr;
    const PassPlan plan = plan_passes(d, params);
    float* workspace =
        c.workspace.reserve(static_cast<size_t>(plan.backward_workspace() + plane_sum_floats));
    backward_passes(exec, d, plan, params.transform_threads, x.data, u_flipped, dy, dx, dw,
                    workspace);
    bias_gradient(c, d, dy, db, workspace + plan.backward_workspace());
  }
}

}  // namespace device_ops
}  // namespace cuda
}  // namespace cae_plugin
