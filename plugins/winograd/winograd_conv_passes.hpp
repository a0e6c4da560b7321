// The Winograd convolution as a sequence of steps (transform items and
// strided-batched GEMMs), over passes of images, for any executor:
//   exec.run(item, threads)   runs item(i) for i < item.count()
//   exec.gemm(call)           one column-major strided-batched SGEMM (cuBLAS semantics)
// winograd_conv.cu runs it with CUDA kernels and cuBLAS; winograd_test.cpp
// with a host executor against a float64 convolution, so the layouts, GEMM
// shapes and pass splitting the GPU runs are tested without a GPU.
#pragma once

#include <algorithm>
#include <cstdint>

#include "op_shapes.hpp"
#include "winograd_conv_items.hpp"
#include "winograd_tuning_table.hpp"

namespace cae_winograd {

// C = alpha op(A) op(B) + beta C, column-major, `batch` members.
struct GemmCall {
  bool trans_a, trans_b;
  int64_t m, n, k;
  const float* a;
  int64_t lda, stride_a;
  const float* b;
  int64_t ldb, stride_b;
  float beta;  // alpha is always 1
  float* c;
  int64_t ldc, stride_c;
  int64_t batch;
};

// At most this many floats (512 MiB) of transformed tiles per pass: larger
// batches run in several passes over the same workspace.
constexpr int64_t kWorkspaceBudgetFloats = int64_t(128) << 20;

// The passes over the batch and the workspace they share.
struct PassPlan {
  TileGrid grid;          // first_image / images set per pass
  int64_t images;         // per pass (the last may have fewer)
  int64_t input_floats;   // 36 * C * tiles of a full pass
  int64_t output_floats;  // 36 * O * tiles of a full pass
  int64_t filter_floats;  // 36 * O * C (backward's dU)

  int64_t forward_workspace() const { return input_floats + output_floats; }
  int64_t backward_workspace() const { return filter_floats + input_floats + output_floats; }
};

inline PassPlan plan_passes(const cae_plugin::ConvDims& d, const LaunchParams& params) {
  PassPlan plan{};
  plan.grid.height = d.H;
  plan.grid.width = d.W;
  plan.grid.tiles_w = tiles_along(d.W);
  plan.grid.tiles_per_image = tiles_along(d.H) * plan.grid.tiles_w;
  const int64_t per_image = kPoints * (d.C + d.O) * plan.grid.tiles_per_image;
  plan.images = images_per_pass(params, d.N, per_image, kWorkspaceBudgetFloats);
  plan.input_floats = kPoints * d.C * plan.grid.tiles_per_image * plan.images;
  plan.output_floats = kPoints * d.O * plan.grid.tiles_per_image * plan.images;
  plan.filter_floats = kPoints * d.O * d.C;
  return plan;
}

// U (forward) or U' (flipped, for dx) of OIHW weights w into u (36 O C floats).
template <class Exec>
void transform_filter(Exec& exec, const cae_plugin::ConvDims& d, int threads, const float* w,
                      float* u, bool flipped) {
  exec.run(FilterTransform{w, u, d.O, d.C, flipped}, threads);
}

// y = [ReLU](conv(x, w) + b) from u = U of w; workspace: plan.forward_workspace() floats.
template <class Exec>
void forward_passes(Exec& exec, const cae_plugin::ConvDims& d, const PassPlan& plan, int threads,
                    const float* x, const float* u, const float* b, float* y, bool relu,
                    float* workspace) {
  float* v = workspace;
  float* m = workspace + plan.input_floats;
  TileGrid g = plan.grid;
  for (int64_t first = 0; first < d.N; first += plan.images) {
    g.first_image = first;
    g.images = std::min(plan.images, d.N - first);
    const int64_t P = g.tiles();
    exec.run(InputTransform{x, v, d.C, g}, threads);
    // M_xi [O][P] = U_xi [O][C] V_xi [C][P]; column-major: M^T = V^T U^T.
    exec.gemm({false, false, P, d.O, d.C, v, P, d.C * P, u, d.C, d.O * d.C, 0.0f, m, P, d.O * P,
               kPoints});
    exec.run(OutputTransform{m, b, y, d.O, g, relu}, threads);
  }
}

// dw (and dx unless nullptr; then u_flipped is unused) of conv(x, w) given dy;
// u_flipped = U' of w; workspace: plan.backward_workspace() floats. db is not
// computed here (a plain reduction of dy).
template <class Exec>
void backward_passes(Exec& exec, const cae_plugin::ConvDims& d, const PassPlan& plan, int threads,
                     const float* x, const float* u_flipped, const float* dy, float* dx, float* dw,
                     float* workspace) {
  float* du = workspace;
  float* input_side = du + plan.filter_floats;          // V(x), later dx's products
  float* output_side = input_side + plan.input_floats;  // A dy A^T, later V(dy)
  TileGrid g = plan.grid;
  for (int64_t first = 0; first < d.N; first += plan.images) {
    g.first_image = first;
    g.images = std::min(plan.images, d.N - first);
    const int64_t P = g.tiles();
    exec.run(InputTransform{x, input_side, d.C, g}, threads);
    exec.run(OutputGradientTransform{dy, output_side, d.O, g}, threads);
    // dU_xi [O][C] (+)= E_xi [O][P] V_xi [C][P]^T; column-major: dU^T = V^T E.
    // Passes accumulate in their fixed order (beta 1 after the first).
    exec.gemm({true, false, d.C, d.O, P, input_side, P, d.C * P, output_side, P, d.O * P,
               first == 0 ? 0.0f : 1.0f, du, d.C, d.O * d.C, kPoints});
    if (dx == nullptr) continue;
    // dx = conv(dy, w'): V(dy) replaces E, the products replace V(x).
    exec.run(InputTransform{dy, output_side, d.O, g}, threads);
    // M_xi [C][P] = U'_xi [C][O] V_xi [O][P]; column-major: M^T = V^T U'^T.
    exec.gemm({false, false, P, d.C, d.O, output_side, P, d.O * P, u_flipped, d.O, d.C * d.O, 0.0f,
               input_side, P, d.C * P, kPoints});
    exec.run(OutputTransform{input_side, nullptr, dx, d.C, g, false}, threads);
  }
  exec.run(FilterGradient{du, dw, d.O, d.C, d.H, d.W}, threads);
}

}  // namespace cae_winograd
