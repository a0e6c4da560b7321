// The device side of every op, called by the entry points once the arguments
// are validated. Pointers are device memory in the runtime's storage order (4-D
// tensors channels-last, see runtime_tensor.hpp); everything is queued on ctx.stream.
#pragma once

#include <cuda_bf16.h>

#include <cstdint>

#include "op_shapes.hpp"
#include "runtime_context.hpp"
#include "svm_dual.hpp"

namespace cae_cuda {

// layout.cu: [batch][rows][cols] -> [batch][cols][rows]
void transpose_batched(Context& ctx, const float* src, float* dst, int64_t batch, int64_t rows,
                       int64_t cols);
// Boundary (NCHW) <-> storage (NHWC) order of a 4-D shape.
void boundary_to_stored(Context& ctx, const cae_plugin::Shape& s, const float* src, float* dst);
void stored_to_boundary(Context& ctx, const cae_plugin::Shape& s, const float* src, float* dst);

// The backend's convolutions, which the entry points call: each backend built
// on this runtime defines them (v3: plugins/v3/v3_convolutions.cpp, v4:
// plugins/v4/v4_conv.cu). dy comes as a tensor, with its version: v4 finds
// the BF16 copy of it that the kernel which wrote it may have made.
void conv2d_forward(Context& ctx, const cae_plugin::ConvDims& d, const cae_tensor_s& x,
                    cae_tensor_s& w, const float* b, float* y, bool relu);
void conv2d_backward(Context& ctx, const cae_plugin::ConvDims& d, const cae_tensor_s& x,
                     cae_tensor_s& w, const cae_tensor_s& dy, float* dx, float* dw, float* db);

// elementwise.cu
// True when the current device runs the runtime's kernels from code compiled for
// compute capability 9.0 or later, which holds the waits that programmatic
// dependent launch relies on (programmatic_launch.cuh); such code runs only
// on devices that support it. A build whose only code for this device is
// older PTX, JIT-compiled here, has no waits.
bool kernels_wait_for_prior_kernels();

void relu_forward(Context& ctx, const float* x, float* y, int64_t count);
void relu_backward(Context& ctx, const float* y, const float* dy, float* dx, int64_t count);
// run_learning_rate (may be nullptr): device memory holding the rate to use
// instead of learning_rate (a captured graph's per-run value).
void sgd_step(Context& ctx, float* param, const float* grad, float* velocity, int64_t count,
              float learning_rate, const float* run_learning_rate, float momentum,
              float weight_decay);
// Any number of Adam steps on disjoint tensors, in one launch per 16.
void adam_steps(Context& ctx, const AdamTensor* tensors, int count);

// resample.cu. x_shape: the large tensor's shape (pool input / upsample output).
// choice (may be nullptr): bytes recorded for the backward pass. The last
// argument (may be nullptr): where the BF16 copy of the output goes as well
// (resample_kernels.cuh).
void maxpool2x2_forward(Context& ctx, const cae_plugin::Shape& x_shape, const float* x, float* y,
                        uint8_t* choice, __nv_bfloat16* y_bf16 = nullptr);
// choice nullptr: re-derived from x. relu_after: also the ReLU backward of x.
void maxpool2x2_backward(Context& ctx, const cae_plugin::Shape& x_shape, const float* x,
                         const uint8_t* choice, const float* dy, float* dx, bool relu_after,
                         __nv_bfloat16* dx_bf16 = nullptr);
void upsample2x_forward(Context& ctx, const cae_plugin::Shape& y_shape, const float* x, float* y,
                        __nv_bfloat16* y_bf16 = nullptr);
// relu_y (may be nullptr): the small ReLU output whose backward is fused.
void upsample2x_backward(Context& ctx, const cae_plugin::Shape& dy_shape, const float* dy,
                         float* dx, const float* relu_y, __nv_bfloat16* dx_bf16 = nullptr);
// The max-pool of x into y, its choices recorded in x's derived storage under
// x's version; and its backward, which uses them while x has not changed
// since (re-derived from x otherwise): the ops and v4's graphs run both.
void maxpool2x2_forward_recording(Context& ctx, cae_tensor_s& x, float* y,
                                  __nv_bfloat16* y_bf16 = nullptr);
void maxpool2x2_backward_recorded(Context& ctx, const cae_tensor_s& x, const float* dy, float* dx,
                                  bool relu_after, __nv_bfloat16* dx_bf16 = nullptr);

// reductions.cu
void mse_loss(Context& ctx, const float* pred, const float* target, int64_t count, float* loss,
              float* grad);
// out[c] = sum over r of m[r][c] (row-major [rows][cols]), fixed order.
void column_sums(Context& ctx, const float* m, int64_t rows, int64_t cols, float* out);
// out[r] = sum over c of m[r][c]^2, fixed order.
void row_squares(Context& ctx, const float* m, int64_t rows, int64_t cols, float* out);

// noise.cu: y = x + sigma * the ABI's normal draws, by boundary-order index
// from first_index (y may be x).
void add_normal_noise(Context& ctx, const cae_plugin::Shape& shape, const float* x, float* y,
                      float sigma, uint64_t seed, uint64_t first_index);

// channel_code.cu: the encoders' linear part at each pixel of x [images,
// channels, pixels] (stored channels-last, or with one channel or one pixel,
// which is the same order), into y of channels or 2 * channels.
void channel_code(Context& ctx, const cae_plugin::ChannelCodeDims& dims, const float* x, float* y,
                  int32_t code, float bias, bool relu);

// kernel_matrix.cu
void kernel_matrix(Context& ctx, const float* x, const float* y, float* k,
                   const cae_plugin::KernelDims& dims, int32_t kind, float gamma);
// K = the RBF kernel_matrix writes, from the product `linear` (may be k).
void kernel_rbf_from_linear(Context& ctx, const float* x, const float* y, const float* linear,
                            float* k, const cae_plugin::KernelDims& dims, float gamma);

// short_products.cu: K = X Y^T when x or y has at most kMaxShortRows rows,
// on the CUDA cores at the long operand's bandwidth. Returns false, having
// queued nothing, when the product is not of that form (or the context's
// short-products option is off, or rows are not 16-byte aligned).
constexpr int kMaxShortRows = 16;
bool short_products(Context& ctx, const float* x, const float* y, float* k,
                    const cae_plugin::KernelDims& dims);

// linear_loss.cu: the linear classifier's loss and residuals (ABI 1.11) on
// checked arguments. Returns false, having queued nothing, when the
// context's linear-loss option is off.
bool linear_loss(Context& ctx, const float* scores, const float* bias, const float* targets,
                 int32_t kind, float scale, float* residuals, float* sums,
                 const cae_plugin::LinearLossDims& dims);

// svm_dual_solve.cu: the checked problems (their tensors' device
// addresses), solved side by side; waits for them and writes each outcome.
void svm_dual_solve(Context& ctx, const cae_plugin::SvmDualWork* work, int32_t count);

}  // namespace cae_cuda
