// The direct path for layers with few channels on one side (uses_direct_path,
// winograd_tuning_table.hpp), as steps for any executor (the interface of
// winograd_conv_passes.hpp: exec.run(item, threads), exec.gemm(call)):
//
//   forward  y  = direct 3x3 convolution, bias and ReLU fused (DirectConv);
//   dx          = direct convolution of dy with the flipped filter;
//   dw          = per image, im2col of the narrow side (K = 9 x narrow rows)
//                 times the wide side's planes: one strided-batched GEMM
//                 (m = 9 narrow, n = wide, k = H W), then a fixed-order sum
//                 over the images (FilterGradientSum); for a narrow input
//                 also db, from a row of ones in the im2col (BiasGradientSum).
//
// Why these methods (arithmetic intensity, README.md "Dispatch"): with 3
// channels on one side, y and dx are output-bound (27 terms per output, the
// 268 MB output of a 256-image batch dominates), so one pass that keeps the
// sums in registers and writes each output once beats any staged method; dw
// has 6,912 outputs of N H W terms each, a GEMM with a long k whose only
// staged operand (the narrow side's 9 x 3 rows per pixel) is small.
#pragma once

#include <algorithm>
#include <cstdint>

#include "op_shapes.hpp"
#include "winograd_conv_passes.hpp"
#include "winograd_direct_items.hpp"

namespace cae_winograd {

// Block size of every direct-path kernel, fixed rather than from the tuning
// table: DirectConv<16> holds 64 sums in 117 registers (nvcc 13, sm_90), so a
// block of 1024 threads (a legal transform-warps=32 value for the Winograd
// transforms) would not fit the register file; 256 gives 2 blocks per SM.
constexpr int kDirectThreads = 256;

// Output channels per direct-convolution item: 16 where there are many (the
// loaded input row is reused for 16 channels), 4 where there are few.
constexpr int kWideOutputGroup = 16;
constexpr int kNarrowOutputGroup = 4;

// Runs the direct convolution of `in` ([images][filter.in_channels][h][w])
// with `filter` into `out`, choosing the channel group by the output width.
template <class Exec>
void direct_convolution(Exec& exec, const float* in, const DirectFilter& filter, const float* bias,
                        float* out, int64_t images, int64_t height, int64_t width, bool relu) {
  const int threads = kDirectThreads;
  if (filter.out_channels >= kWideOutputGroup) {
    exec.run(DirectConv<kWideOutputGroup>{in, filter, bias, out, images, height, width, relu},
             threads);
  } else {
    exec.run(DirectConv<kNarrowOutputGroup>{in, filter, bias, out, images, height, width, relu},
             threads);
  }
}

// y = [ReLU](conv(x, w) + b).
template <class Exec>
void direct_forward(Exec& exec, const cae_plugin::ConvDims& d, const float* x, const float* w,
                    const float* b, float* y, bool relu) {
  direct_convolution(exec, x, DirectFilter{w, d.O, d.C, false}, b, y, d.N, d.H, d.W, relu);
}

// dx = conv(dy, w'), w'[c][o] = rot180(w[o][c]).
template <class Exec>
void direct_data_gradient(Exec& exec, const cae_plugin::ConvDims& d, const float* dy,
                          const float* w, float* dx) {
  direct_convolution(exec, dy, DirectFilter{w, d.C, d.O, true}, nullptr, dx, d.N, d.H, d.W, false);
}

// The weight gradient's passes over the batch and the workspace they share.
struct FilterGradientPlan {
  bool narrow_input;       // x is the narrow side (C <= O), else dy
  bool bias_in_gemm;       // db from a ones row in x's im2col (narrow input)
  int64_t narrow, wide;    // channels of the two sides
  int64_t rows;            // of the im2col per pixel: 9 narrow (+ 1 ones row)
  int64_t images;          // per pass (the last may have fewer)
  int64_t col_floats;      // im2col of a full pass: images x rows x H W
  int64_t partial_floats;  // per-image partials of a full pass: images x wide x rows
  int64_t workspace() const { return col_floats + partial_floats; }
};

inline FilterGradientPlan plan_filter_gradient(const cae_plugin::ConvDims& d,
                                               const LaunchParams& params) {
  FilterGradientPlan plan{};
  plan.narrow_input = d.C <= d.O;
  // With x im2col'd the GEMM's other operand is dy: a ones row gives db for
  // one more GEMM row instead of another pass over dy (268 MB for conv1 at
  // batch 256). With dy im2col'd (narrow output) dy is the small side.
  plan.bias_in_gemm = plan.narrow_input;
  plan.narrow = plan.narrow_input ? d.C : d.O;
  plan.wide = plan.narrow_input ? d.O : d.C;
  plan.rows = kTaps * kTaps * plan.narrow + (plan.bias_in_gemm ? 1 : 0);
  const int64_t per_image = plan.rows * d.H * d.W + plan.wide * plan.rows;
  plan.images = images_per_pass(params, d.N, per_image, kWorkspaceBudgetFloats);
  plan.col_floats = plan.images * plan.rows * d.H * d.W;
  plan.partial_floats = plan.images * plan.wide * plan.rows;
  return plan;
}

// dw of conv(x, w) given dy, and db when plan.bias_in_gemm (else db is left
// to the caller); workspace: plan.workspace() floats.
template <class Exec>
void direct_filter_gradient(Exec& exec, const cae_plugin::ConvDims& d,
                            const FilterGradientPlan& plan, const float* x, const float* dy,
                            float* dw, float* db, float* workspace) {
  const int threads = kDirectThreads;
  float* col = workspace;
  float* partial = workspace + plan.col_floats;
  const float* narrow_side = plan.narrow_input ? x : dy;
  const float* wide_side = plan.narrow_input ? dy : x;
  const int64_t pixels = d.H * d.W, rows = plan.rows;
  const FilterGradientPartials partials{partial, d.O, d.C, rows, plan.narrow_input};
  for (int64_t first = 0; first < d.N; first += plan.images) {
    const int64_t images = std::min(plan.images, d.N - first);
    const bool accumulate = first > 0;
    exec.run(Im2col{narrow_side, col, first, images, plan.narrow, d.H, d.W, plan.bias_in_gemm},
             threads);
    // partial_n [wide][rows] = wide_n [wide][pixels] col_n [rows][pixels]^T;
    // column-major: partial^T (rows x wide) = col^T wide^T.
    exec.gemm({true, false, rows, plan.wide, pixels, col, pixels, rows * pixels,
               wide_side + first * plan.wide * pixels, pixels, plan.wide * pixels, 0.0f, partial,
               rows, plan.wide * rows, images});
    exec.run(FilterGradientSum{partials, dw, images, accumulate}, threads);
    if (plan.bias_in_gemm) exec.run(BiasGradientSum{partials, db, images, accumulate}, threads);
  }
}

}  // namespace cae_winograd
