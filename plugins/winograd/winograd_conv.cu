// The Winograd F(4x4,3x3) convolution: filter transform (cached per weight
// version), input transform, 36 strided-batched FP32 GEMMs, output transform
// with bias and ReLU fused; the backward pass reuses the same pieces (README.md).
#include <algorithm>
#include <string>

#include "winograd_conv_kernels.cuh"
#include "winograd_gemm.hpp"
#include "winograd_ops.hpp"
#include "winograd_tuning_table.hpp"

namespace cae_winograd {
namespace {

using cae_plugin::ConvDims;

// At most this many floats (512 MiB) of transformed tiles per pass: larger
// batches run in several passes over the same workspace.
constexpr int64_t kWorkspaceBudgetFloats = int64_t(128) << 20;

void require_3x3(const ConvDims& d, const char* op) {
  if (d.K != kTaps) {
    cae_plugin::fail(CAE_STATUS_UNSUPPORTED,
                     std::string(op) + ": the winograd backend computes 3x3 kernels only (w has K = " +
                         std::to_string(d.K) + ")");
  }
}

LaunchParams params_for(const Context& c, const ConvDims& d) {
  LaunchParams params = lookup_launch_params({d.C, d.O, d.H, d.W});
  if (!c.tuning_override.empty()) params = apply_override(params, c.tuning_override);
  return params;
}

TileGrid whole_grid(const ConvDims& d) {
  TileGrid g{};
  g.height = d.H;
  g.width = d.W;
  g.tiles_w = tiles_along(d.W);
  g.tiles_per_image = tiles_along(d.H) * g.tiles_w;
  g.first_image = 0;
  g.images = d.N;
  return g;
}

// The passes over the batch: images per pass and the workspace they share.
struct PassPlan {
  int64_t images;          // per pass (the last may have fewer)
  int64_t input_floats;    // 36 * C * tiles of a full pass
  int64_t output_floats;   // 36 * O * tiles of a full pass
};

PassPlan plan_passes(const ConvDims& d, const LaunchParams& params, const TileGrid& g) {
  const int64_t per_image = kPoints * (d.C + d.O) * g.tiles_per_image;
  PassPlan plan{};
  plan.images = images_per_pass(params, d.N, per_image, kWorkspaceBudgetFloats);
  plan.input_floats = kPoints * d.C * g.tiles_per_image * plan.images;
  plan.output_floats = kPoints * d.O * g.tiles_per_image * plan.images;
  return plan;
}

unsigned blocks(int64_t items, int threads) {
  return cae_plugin::cuda::grid_for(items, static_cast<unsigned>(threads));
}

// U (or the flipped U') of `w`, from the cache or transformed now.
const float* transformed_filter(Context& c, const cae_tensor_s& w, const ConvDims& d, int threads,
                                bool flipped) {
  FilterCache& cache = flipped ? c.flipped_filters : c.filters;
  const int64_t pairs = d.O * d.C;
  return cache.get(w, static_cast<size_t>(kPoints * pairs), [&](float* dst) {
    filter_transform_kernel<<<blocks(pairs, threads), threads, 0, c.stream>>>(w.data, dst, d.O,
                                                                               d.C, flipped);
    CAE_CUDA_CHECK_LAUNCH("filter_transform_kernel");
  });
}

}  // namespace

void conv2d_forward(Context& c, const ConvDims& d, const float* x, const cae_tensor_s& w,
                    const float* b, float* y, bool relu) {
  require_3x3(d, "conv2d_forward");
  const LaunchParams params = params_for(c, d);
  const int threads = params.transform_threads;
  const float* u = transformed_filter(c, w, d, threads, /*flipped=*/false);
  TileGrid g = whole_grid(d);
  const PassPlan plan = plan_passes(d, params, g);
  float* v = c.workspace.reserve(static_cast<size_t>(plan.input_floats + plan.output_floats));
  float* m = v + plan.input_floats;
  for (int64_t first = 0; first < d.N; first += plan.images) {
    g.first_image = first;
    g.images = std::min(plan.images, d.N - first);
    const int64_t P = g.tiles();
    input_transform_kernel<<<blocks(d.C * P, threads), threads, 0, c.stream>>>(x, v, d.C, g);
    CAE_CUDA_CHECK_LAUNCH("input_transform_kernel");
    // M_xi [O][P] = U_xi [O][C] V_xi [C][P]; column-major: M^T = V^T U^T.
    strided_batched_gemm(c, CUBLAS_OP_N, CUBLAS_OP_N, P, d.O, d.C, 1.0f, {v, P, d.C * P},
                         {u, d.C, d.O * d.C}, 0.0f, m, P, d.O * P, kPoints);
    output_transform_kernel<<<blocks(d.O * P, threads), threads, 0, c.stream>>>(m, b, y, d.O, g,
                                                                                relu);
    CAE_CUDA_CHECK_LAUNCH("output_transform_kernel");
  }
}

void conv2d_backward(Context& c, const ConvDims& d, const float* x, const cae_tensor_s& w,
                     const float* dy, float* dx, float* dw, float* db) {
  require_3x3(d, "conv2d_backward");
  const LaunchParams params = params_for(c, d);
  const int threads = params.transform_threads;
  const float* u_flipped = dx ? transformed_filter(c, w, d, threads, /*flipped=*/true) : nullptr;
  TileGrid g = whole_grid(d);
  const PassPlan plan = plan_passes(d, params, g);
  const int64_t filter_floats = kPoints * d.O * d.C;
  float* du = c.workspace.reserve(
      static_cast<size_t>(filter_floats + plan.input_floats + plan.output_floats));
  float* input_side = du + filter_floats;                 // V(x), later dx's products
  float* output_side = input_side + plan.input_floats;    // A dy A^T, later V(dy)
  for (int64_t first = 0; first < d.N; first += plan.images) {
    g.first_image = first;
    g.images = std::min(plan.images, d.N - first);
    const int64_t P = g.tiles();
    input_transform_kernel<<<blocks(d.C * P, threads), threads, 0, c.stream>>>(x, input_side, d.C,
                                                                               g);
    CAE_CUDA_CHECK_LAUNCH("input_transform_kernel");
    output_gradient_transform_kernel<<<blocks(d.O * P, threads), threads, 0, c.stream>>>(
        dy, output_side, d.O, g);
    CAE_CUDA_CHECK_LAUNCH("output_gradient_transform_kernel");
    // dU_xi [O][C] (+)= E_xi [O][P] V_xi[C][P]^T; column-major: dU^T = V^T E.
    // Passes accumulate in their fixed order (beta 1 after the first).
    strided_batched_gemm(c, CUBLAS_OP_T, CUBLAS_OP_N, d.C, d.O, P, 1.0f, {input_side, P, d.C * P},
                         {output_side, P, d.O * P}, first == 0 ? 0.0f : 1.0f, du, d.C,
                         d.O * d.C, kPoints);
    if (dx == nullptr) continue;
    // dx = conv(dy, w'): V(dy) replaces E, the products replace V(x).
    input_transform_kernel<<<blocks(d.O * P, threads), threads, 0, c.stream>>>(dy, output_side,
                                                                               d.O, g);
    CAE_CUDA_CHECK_LAUNCH("input_transform_kernel (dy)");
    // M_xi [C][P] = U'_xi [C][O] V_xi [O][P]; column-major: M^T = V^T U'^T.
    strided_batched_gemm(c, CUBLAS_OP_N, CUBLAS_OP_N, P, d.C, d.O, 1.0f,
                         {output_side, P, d.O * P}, {u_flipped, d.O, d.C * d.O}, 0.0f, input_side,
                         P, d.C * P, kPoints);
    output_transform_kernel<<<blocks(d.C * P, threads), threads, 0, c.stream>>>(
        input_side, nullptr, dx, d.C, g, false);
    CAE_CUDA_CHECK_LAUNCH("output_transform_kernel (dx)");
  }
  filter_gradient_kernel<<<blocks(d.O * d.C, threads), threads, 0, c.stream>>>(du, dw, d.O, d.C);
  CAE_CUDA_CHECK_LAUNCH("filter_gradient_kernel");
  const unsigned bias_blocks = static_cast<unsigned>(std::min<int64_t>(d.O, 65535));
  bias_gradient_kernel<<<bias_blocks, kBiasThreads, 0, c.stream>>>(dy, db, d.N, d.O, d.H * d.W);
  CAE_CUDA_CHECK_LAUNCH("bias_gradient_kernel");
}

}  // namespace cae_winograd
