// The device side of every v1 op: the entry points (v1_layer_entries.cpp)
// validate handles and shapes, then call these, which only launch kernels on
// the context's stream. Pointers are device pointers of live tensors.
#pragma once

#include <cstdint>

#include "op_shapes.hpp"
#include "v1_context.hpp"

namespace v1 {

// Throws UNSUPPORTED unless the convolution is one v1 implements (K == 3) and
// its sizes fit the kernels' 32-bit index arithmetic.
void require_supported_conv(const char* op, const cae_plugin::ConvDims& d);

void conv2d_forward(cae_context_s& ctx, const cae_plugin::ConvDims& d, const float* x,
                    const float* w, const float* b, float* y, bool fuse_relu);
// dx may be nullptr (not requested).
void conv2d_backward(cae_context_s& ctx, const cae_plugin::ConvDims& d, const float* x,
                     const float* w, const float* dy, float* dx, float* dw, float* db);

void relu_forward(cae_context_s& ctx, const float* x, float* y, int64_t count);
void relu_backward(cae_context_s& ctx, const float* y, const float* dy, float* dx, int64_t count);

// big: [N,C,H,W]; the 2x2 window grid is [N,C,H/2,W/2].
void maxpool2x2_forward(cae_context_s& ctx, const cae_plugin::Shape& big, const float* x, float* y);
void maxpool2x2_backward(cae_context_s& ctx, const cae_plugin::Shape& big, const float* x,
                         const float* dy, float* dx);
// small: [N,C,H,W]; the upsampled tensor is [N,C,2H,2W].
void upsample2x_forward(cae_context_s& ctx, const cae_plugin::Shape& small, const float* x,
                        float* y);
void upsample2x_backward(cae_context_s& ctx, const cae_plugin::Shape& small, const float* dy,
                         float* dx);

// grad may be nullptr.
void mse_loss(cae_context_s& ctx, const float* pred, const float* target, float* loss, float* grad,
              int64_t count);

// velocity may be nullptr (then momentum is 0).
void sgd_step(cae_context_s& ctx, float* param, const float* grad, float* velocity, int64_t count,
              float learning_rate, float momentum, float weight_decay);
void adam_step(cae_context_s& ctx, float* param, const float* grad, float* m, float* v,
               int64_t count, const cae_adam_params& params);

void kernel_matrix(cae_context_s& ctx, const cae_plugin::KernelDims& d, const float* x,
                   const float* y, float* k, int32_t kind, float gamma);

}  // namespace v1
