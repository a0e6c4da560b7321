// The shape contract of every op in api/cae/backend.h, checked in one place so
// that all backends accept exactly the same inputs and word their errors alike.
#pragma once

#include "plugin_support.hpp"

namespace cae_plugin {

// Dimensions of one convolution: x [N,C,H,W], w [O,C,K,K], y [N,O,H,W].
struct ConvDims {
  int64_t N, C, H, W, O, K;
};

ConvDims check_conv2d_forward(const Shape& x, const Shape& w, const Shape& b, const Shape& y,
                              int32_t fuse_relu);
// dx may be nullptr (not requested).
ConvDims check_conv2d_backward(const Shape& x, const Shape& w, const Shape& dy, const Shape* dx,
                               const Shape& dw, const Shape& db);

// Same element count (element-wise ops: relu, mse, optimizers).
void check_same_count(const char* op, const char* a_name, const Shape& a, const char* b_name,
                      const Shape& b);
// Exactly the same dims.
void check_same_shape(const char* op, const char* a_name, const Shape& a, const char* b_name,
                      const Shape& b);

// x [N,C,H,W] (H, W even) -> y [N,C,H/2,W/2]
void check_pool2x2(const char* op, const Shape& big, const Shape& small);
// x [N,C,H,W] -> y [N,C,2H,2W]
void check_upsample2x(const char* op, const Shape& small, const Shape& big);

// tensor_upload / tensor_download move whole tensors: `count` must be its element count.
void check_transfer_count(const char* op, const Shape& shape, size_t count);

void check_mse(const Shape& pred, const Shape& target, const Shape& loss, const Shape* grad);

// Returns {n, m, d}.
struct KernelDims {
  int64_t n, m, d;
};
KernelDims check_kernel_matrix(const Shape& x, const Shape& y, const Shape& k, int32_t kind,
                               float gamma);
// kernel_rbf_from_linear (ABI 1.10): linear and k [n,m] for x [n,d], y [m,d];
// gamma > 0 and finite.
KernelDims check_kernel_rbf_from_linear(const Shape& x, const Shape& y, const Shape& linear,
                                        const Shape& k, float gamma);

// linear_loss (ABI 1.11): scores [n,k], bias [k], targets [n], residuals
// [k,n], sums [ceil(n / CAE_LINEAR_LOSS_BLOCK_ROWS), k + 1, 2]; a known kind;
// scale > 0 and finite; `aliased`: residuals or sums is one of the inputs.
struct LinearLossDims {
  int64_t rows, classes, blocks;
};
// Whether residuals or sums is one of the inputs, or the two are one tensor.
inline bool linear_loss_outputs_alias(cae_tensor scores, cae_tensor bias, cae_tensor targets,
                                      cae_tensor residuals, cae_tensor sums) {
  return residuals == scores || residuals == bias || residuals == targets || sums == scores ||
         sums == bias || sums == targets || sums == residuals;
}
LinearLossDims check_linear_loss(const Shape& scores, const Shape& bias, const Shape& targets,
                                 int32_t kind, float scale, const Shape& residuals,
                                 const Shape& sums, bool aliased);

// transpose (ABI 1.11): x [r,c], y [c,r], x and y different tensors
// (`same`). Returns {r, c}.
struct TransposeDims {
  int64_t rows, cols;
};
TransposeDims check_transpose(const Shape& x, const Shape& y, bool same);

// add_normal_noise (ABI 1.12): y the shape of x, sigma finite and >= 0.
// Returns the number of values.
int64_t check_add_normal_noise(const Shape& x, const Shape& y, float sigma);

// channel_code (ABI 1.13): x [N,C,H,W], y [N,C,H,W] (CENTRED) or
// [N,2C,H,W] (SPLIT) and not x itself (`same`), a known code, a finite
// bias. Returns {N, C, H*W}.
struct ChannelCodeDims {
  int64_t images, channels, pixels;
};
ChannelCodeDims check_channel_code(const Shape& x, const Shape& y, bool same, int32_t code,
                                   float bias);

// svm_dual_solve: problem `index` (struct_size, shapes, C, eps,
// max_iterations; kernel_aa [n_a,n_a], kernel_ab [n_a,n_b], kernel_ba
// [n_b,n_a], kernel_bb [n_b,n_b], alpha and gradient [n_a+n_b]). Returns
// {n_a, n_b}.
struct SvmDualDims {
  int64_t n_a, n_b;
  int64_t rows() const { return n_a + n_b; }
};
struct SvmDualShapes {
  Shape aa, ab;
  const Shape* ba;  // nullptr: kernel_ba is NULL, K(b, a) is kernel_ab's transpose (ABI 1.9)
  Shape bb, alpha, gradient;
};
void check_svm_dual_header(int32_t index, const cae_svm_dual_problem* problem);
SvmDualDims check_svm_dual_problem(int32_t index, const cae_svm_dual_problem& problem,
                                   const SvmDualShapes& shapes);
// The start's contents: alpha in [0, C], y'alpha = 0 within rounding,
// gradient finite (no NaN or Inf anywhere).
void check_svm_dual_start(int32_t index, const SvmDualDims& dims, double C, const float* alpha,
                          const float* gradient);

void check_sgd(const Shape& param, const Shape& grad, const Shape* velocity, float learning_rate,
               float momentum, float weight_decay);
void check_adam(const Shape& param, const Shape& grad, const Shape& m, const Shape& v,
                const cae_adam_params* params);

}  // namespace cae_plugin
