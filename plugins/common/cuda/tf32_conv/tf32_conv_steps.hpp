// The order of gathers and GEMMs that makes a convolution on NHWC tensors.
//
// With P = N*H*W pixels, T = K*K taps, weights stored w[o][tap][c] (Wm[O][T*C]):
//
// "columns" scheme (C <= O: the im2col matrix is the smaller intermediate)
//   cols[P][ld]  = gather(x, +1): T*C columns, then a column of ones, then zeros
//   forward      Y[P][O]      = cols Wm^T, bias and ReLU fused in the GEMM
//                (an odd T*C, conv1's 27, multiplies [O][ld] zero-padded weights,
//                so that every GEMM operand has 16-byte aligned rows)
//   backward     dW'[O][ld]    = DY^T cols: the ones column makes column T*C of
//                each row the bias gradient (split-K over P)
//                dcols[P][T*C] = DY Wm (with Wm^T stored), dx = tapsum(dcols, -1)
// "taps" scheme (C > O: the per-tap output matrix is the smaller one)
//   Wt[ld][C]    = the weights in [tap][o][c] order, zero rows up to ld
//   forward      taps[P][ld]  = X Wt^T,  y = tapsum(taps, +1) with bias and ReLU
//   backward     G[P][ld]     = gather(dy, -1)
//                DX[P][C]     = G Wt (with Wt^T stored)
//                dWt[ld][C]   = G^T X (split-K over P);  db = column sums of DY
//
// Every GEMM but the weight gradients reads both operands along K ("TN" in
// cuBLAS terms), the fast case of TF32 tensor cores; the prepared weight forms
// (padded, transposed, tap-major) are kept with the weight tensor. The weight
// gradients are split along P into S equal chunks (a strided batch of S GEMMs)
// and summed in a fixed order by one small kernel: enough blocks for the whole
// GPU, and deterministic.
//
// Written against ConvExecutor so that the host test runs the same steps.
#pragma once

#include <cstdint>

#include "lt_gemm.hpp"
#include "op_shapes.hpp"
#include "tf32_conv_kernels.cuh"

namespace cae_tf32_conv {

struct ConvShape {
  int64_t N, C, H, W, O, K;
  explicit ConvShape(const cae_plugin::ConvDims& d)
      : N(d.N), C(d.C), H(d.H), W(d.W), O(d.O), K(d.K) {}
  int64_t pixels() const { return N * H * W; }
  int64_t taps() const { return K * K; }
  bool columns_scheme() const { return C <= O; }
};

// Columns of the gathered / per-tap matrices, padded for 16-byte rows.
inline int64_t padded_row(int64_t floats) { return (floats + 3) / 4 * 4; }

// The matrix dimensions of one convolution's scheme.
struct ConvLayout {
  bool columns;
  int64_t width;            // columns: T*C; taps: T*O
  int64_t ld;               // row length of cols / taps / G
  bool padded_weights;      // columns: forward multiplies [O][ld] padded weights
  int64_t forward_k;        // columns: K of the forward GEMM
  int64_t first_part;       // floats of the prepared weights' first part
  int64_t prepared_floats;  // floats of all prepared weights

  explicit ConvLayout(const ConvShape& s);
};

// Where an intermediate that may outlive the op lives. data == nullptr: in
// the op's scratch. valid: it already holds the right contents.
struct Reusable {
  float* data = nullptr;
  bool valid = false;
};

struct GatherJob {
  const float* src;
  float* dst;
  int64_t channels, ld;
  int sign;
  int64_t ones_at;  // -1: no column of ones
};

struct TapSumJob {
  const float* src;
  int64_t ld;
  float* out;
  int64_t channels;
  int sign;
  const float* bias;
  bool relu;
};

class ConvExecutor {
 public:
  virtual ~ConvExecutor() = default;
  // Output tiles the split-K weight gradients aim for (about 4 per multiprocessor).
  virtual int64_t split_target_tiles() const = 0;
  // One reservation per op: the pointer is valid until the next call.
  virtual float* scratch(size_t floats) = 0;
  virtual void gather(const ConvShape& s, const GatherJob& job) = 0;
  virtual void tap_sum(const ConvShape& s, const TapSumJob& job) = 0;
  virtual bool gemm(const GemmCall& call, const char* what) = 0;
  virtual void bias_activation(float* y, const float* bias, int64_t rows, int64_t cols,
                               bool relu) = 0;
  // out[c] = sum over rows of m[r][c], fixed order.
  virtual void column_sums(const float* m, int64_t rows, int64_t cols, float* out) = 0;
  virtual void reduce_splits(const SplitReduce& job) = 0;
  virtual void prepare_weights(const PreparedWeights& job, int64_t floats) = 0;
};

void conv_forward_steps(ConvExecutor& ex, const ConvShape& s, const float* x, const float* w,
                        const float* b, float* y, bool relu, Reusable columns, Reusable prepared_w);

// dx may be nullptr.
void conv_backward_steps(ConvExecutor& ex, const ConvShape& s, const float* x, const float* w,
                         const float* dy, float* dx, float* dw, float* db, Reusable columns,
                         Reusable prepared_w);

// Split count for a weight gradient of m x n outputs over P pixels (public for the test).
int32_t weight_gradient_splits(int64_t m, int64_t n, int64_t pixels, int64_t target_tiles);

}  // namespace cae_tf32_conv
