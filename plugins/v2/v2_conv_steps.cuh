// The order of gathers and GEMMs that makes a convolution (see
// v2_conv_gemms.hpp for the products and the choice of strategy).
//
// Written once against an "executor" so that the same steps run on the GPU
// (DeviceExecutor: kernels and cuBLAS on the context's stream) and, for
// testing, on the host. An executor provides:
//   float* scratch(size_t floats)        one workspace reservation per op
//   void run(const Body&, const char*)   every item of an element-wise body
//   void gemm(const RowMajorGemm&, const char*)
//   void row_sums(const float* in, int64_t rows, int64_t cols, float* out)
// Steps are issued in order on one stream, so a scratch array may be reused as
// soon as the step after its last reader is issued.
#pragma once

#include "op_shapes.hpp"
#include "v2_conv_gemms.hpp"
#include "v2_elementwise_kernels.cuh"
#include "v2_im2col_kernels.cuh"
#include "v2_layout_kernels.cuh"
#include "v2_workspace.hpp"

namespace cae_v2 {

inline GatherGeometry gather_geometry(const cae_plugin::ConvDims& d, int64_t channels, int sign) {
  return {channels, d.N, d.H, d.W, d.K, sign};
}

// y = [ReLU](conv(x, w) + b); x, y channel-major, w stored as Wc.
template <class Exec>
void conv_forward_steps(Exec& ex, const cae_plugin::ConvDims& d, const float* x, const float* w,
                        const float* b, float* y, bool relu) {
  const ConvSizes s(d);
  ScratchPlan plan;
  if (use_output_taps(d)) {
    const size_t taps_at = plan.take(s.O * s.KK * s.P);
    float* taps = ex.scratch(plan.total_floats()) + taps_at;
    ex.gemm(taps_from_input(s, w, x, taps), "conv2d_forward: taps = Wc^T X");
    // The gather is also the epilogue: bias and ReLU fused into it.
    ex.run(TapSum{gather_geometry(d, s.O, +1), taps, b, y, relu}, "conv2d_forward tap sum");
  } else {
    const size_t w_o_at = plan.take(s.O * s.C * s.KK);
    const size_t columns_at = plan.take(s.C * s.KK * s.P);
    float* base = ex.scratch(plan.total_floats());
    float* w_o = base + w_o_at;
    float* columns = base + columns_at;
    ex.run(SwapLeadingDims{w, w_o, s.C, s.O, s.KK}, "conv2d_forward weight transpose");
    ex.run(ColumnGather{gather_geometry(d, s.C, +1), x, columns}, "conv2d_forward im2col");
    ex.gemm(output_from_columns(s, w_o, columns, y), "conv2d_forward: Y = Wo columns");
    ex.run(BiasActivation{y, b, s.O, s.P, relu}, "conv2d_forward bias epilogue");
  }
}

// dx (may be nullptr), dw (stored as Wc) and db of y = conv(x, w) + b.
template <class Exec>
void conv_backward_steps(Exec& ex, const cae_plugin::ConvDims& d, const float* x, const float* w,
                         const float* dy, float* dx, float* dw, float* db) {
  const ConvSizes s(d);
  ScratchPlan plan;
  if (use_output_taps(d)) {
    const size_t grad_columns_at = plan.take(s.O * s.KK * s.P);
    float* grad_columns = ex.scratch(plan.total_floats()) + grad_columns_at;
    ex.run(ColumnGather{gather_geometry(d, s.O, -1), dy, grad_columns},
           "conv2d_backward gradient im2col");
    if (dx) {
      ex.gemm(input_grad_from_grad_columns(s, w, grad_columns, dx),
              "conv2d_backward: DX = Wc gcols");
    }
    ex.gemm(weight_grad_from_grad_columns(s, x, grad_columns, dw),
            "conv2d_backward: dWc = X gcols^T");
  } else {
    const size_t columns_at = plan.take(s.C * s.KK * s.P);
    const size_t dw_o_at = plan.take(s.O * s.C * s.KK);
    const size_t w_o_at = dx ? plan.take(s.O * s.C * s.KK) : 0;
    float* base = ex.scratch(plan.total_floats());
    float* columns = base + columns_at;
    float* dw_o = base + dw_o_at;
    ex.run(ColumnGather{gather_geometry(d, s.C, +1), x, columns}, "conv2d_backward im2col");
    ex.gemm(weight_grad_from_columns(s, dy, columns, dw_o), "conv2d_backward: dWo = DY columns^T");
    // [O][C][KK] -> the stored [C][O][KK]
    ex.run(SwapLeadingDims{dw_o, dw, s.O, s.C, s.KK}, "conv2d_backward weight-gradient transpose");
    if (dx) {
      float* w_o = base + w_o_at;
      float* dcolumns = columns;  // the columns' last reader was the GEMM above
      ex.run(SwapLeadingDims{w, w_o, s.C, s.O, s.KK}, "conv2d_backward weight transpose");
      ex.gemm(column_grad_from_output_grad(s, w_o, dy, dcolumns),
              "conv2d_backward: dcols = Wo^T DY");
      ex.run(TapSum{gather_geometry(d, s.C, -1), dcolumns, nullptr, dx, false},
             "conv2d_backward col2im");
    }
  }
  ex.row_sums(dy, s.O, s.P, db);  // db[o] = sum over the batch's pixels of DY[o][p]
}

}  // namespace cae_v2
