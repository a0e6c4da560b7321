// The six matrix products of the convolution, each ONE GEMM over the whole
// batch thanks to the channel-major activations: x is X[C][P], dy is DY[O][P]
// with P = N*H*W pixels, and the stored weights are Wc[C][O*KK] (KK = K*K),
// i.e. w[o][c][ky][kx] at c*O*KK + o*KK + ky*K + kx. Wo[O][C*KK] is the
// boundary (OIHW) order, obtained by a transpose in the workspace.
//
// Two strategies, picked by which intermediate matrix is smaller:
//   "input columns" (O >= C): columns[C*KK][P] = im2col(x)
//       forward:      Y[O][P]       = Wo · columns
//       weight grad:  dWo[O][C*KK]  = DY · columns^T          (then transposed to Wc order)
//       input grad:   dcols[C*KK][P] = Wo^T · DY,  dx = col2im gather of dcols
//   "output taps" (O < C):
//       forward:      taps[O*KK][P] = Wc^T · X,    y = tap-sum gather of taps
//       gradient columns gcols[O*KK][P] = im2col of dy with reversed offsets
//       input grad:   DX[C][P]      = Wc · gcols
//       weight grad:  dWc[C][O*KK]  = X · gcols^T             (already in Wc order)
#pragma once

#include "op_shapes.hpp"
#include "v2_gemm.hpp"

namespace cae_v2 {

struct ConvSizes {
  int64_t C, O, K, KK, P;
  explicit ConvSizes(const cae_plugin::ConvDims& d)
      : C(d.C), O(d.O), K(d.K), KK(d.K * d.K), P(d.N * d.H * d.W) {}
};

inline bool use_output_taps(const cae_plugin::ConvDims& d) { return d.O < d.C; }

// ---- "input columns" ----

// Y[O][P] = Wo[O][C*KK] · columns[C*KK][P]
inline RowMajorGemm output_from_columns(const ConvSizes& s, const float* w_o, const float* columns,
                                        float* y) {
  return {false, false, s.O, s.P, s.C * s.KK, w_o, s.C * s.KK, columns, s.P, y, s.P};
}

// dWo[O][C*KK] = DY[O][P] · columns[C*KK][P]^T
inline RowMajorGemm weight_grad_from_columns(const ConvSizes& s, const float* dy,
                                             const float* columns, float* dw_o) {
  return {false, true, s.O, s.C * s.KK, s.P, dy, s.P, columns, s.P, dw_o, s.C * s.KK};
}

// dcols[C*KK][P] = Wo[O][C*KK]^T · DY[O][P]
inline RowMajorGemm column_grad_from_output_grad(const ConvSizes& s, const float* w_o,
                                                 const float* dy, float* dcolumns) {
  return {true, false, s.C * s.KK, s.P, s.O, w_o, s.C * s.KK, dy, s.P, dcolumns, s.P};
}

// ---- "output taps" ----

// taps[O*KK][P] = Wc[C][O*KK]^T · X[C][P]
inline RowMajorGemm taps_from_input(const ConvSizes& s, const float* w_c, const float* x,
                                    float* taps) {
  return {true, false, s.O * s.KK, s.P, s.C, w_c, s.O * s.KK, x, s.P, taps, s.P};
}

// DX[C][P] = Wc[C][O*KK] · gcols[O*KK][P]
inline RowMajorGemm input_grad_from_grad_columns(const ConvSizes& s, const float* w_c,
                                                 const float* grad_columns, float* dx) {
  return {false, false, s.C, s.P, s.O * s.KK, w_c, s.O * s.KK, grad_columns, s.P, dx, s.P};
}

// dWc[C][O*KK] = X[C][P] · gcols[O*KK][P]^T
inline RowMajorGemm weight_grad_from_grad_columns(const ConvSizes& s, const float* x,
                                                  const float* grad_columns, float* dw_c) {
  return {false, true, s.C, s.O * s.KK, s.P, x, s.P, grad_columns, s.P, dw_c, s.O * s.KK};
}

}  // namespace cae_v2
