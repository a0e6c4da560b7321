// The device side of every op, called by the entry points once the arguments
// are validated and the outputs marked written. Pointers are device memory in
// the boundary layout (NCHW / OIHW / row-major); everything is queued on
// ctx.stream and checked (launch errors and cuBLAS statuses become Errors).
#pragma once

#include <cstdint>

#include "op_shapes.hpp"
#include "winograd_context.hpp"

namespace cae_winograd {

// Winograd F(4x4,3x3); K != 3 is CAE_STATUS_UNSUPPORTED.
// Throws UNSUPPORTED unless the convolution is 3x3, the only kernel the
// backend computes (the convolutions call it; so does graph_compile).
void require_3x3(const cae_plugin::ConvDims& d, const char* op);

void conv2d_forward(Context& ctx, const cae_plugin::ConvDims& d, const float* x,
                    const cae_tensor_s& w, const float* b, float* y, bool relu);
// dx may be nullptr.
void conv2d_backward(Context& ctx, const cae_plugin::ConvDims& d, const float* x,
                     const cae_tensor_s& w, const float* dy, float* dx, float* dw, float* db);

void relu_forward(Context& ctx, const float* x, float* y, int64_t count);
void relu_backward(Context& ctx, const float* y, const float* dy, float* dx, int64_t count);
// Shapes are those of the large tensor (the pool's input, the upsample's output).
void maxpool2x2_forward(Context& ctx, const cae_plugin::Shape& x_shape, const float* x, float* y);
void maxpool2x2_backward(Context& ctx, const cae_plugin::Shape& x_shape, const float* x,
                         const float* dy, float* dx);
// Shapes are those of the small tensor (the upsample's input).
void upsample2x_forward(Context& ctx, const cae_plugin::Shape& x_shape, const float* x, float* y);
void upsample2x_backward(Context& ctx, const cae_plugin::Shape& dx_shape, const float* dy,
                         float* dx);

// loss[0] = sum((pred - target)^2) / count; grad (may be nullptr) = 2 (pred - target) / count.
void mse_loss(Context& ctx, const float* pred, const float* target, int64_t count, float* loss,
              float* grad);

// velocity may be nullptr (momentum 0).
void sgd_step(Context& ctx, float* param, const float* grad, float* velocity, int64_t count,
              float learning_rate, float momentum, float weight_decay);
void adam_step(Context& ctx, float* param, const float* grad, float* m, float* v, int64_t count,
               const cae_adam_params& params);

void kernel_matrix(Context& ctx, const float* x, const float* y, float* k,
                   const cae_plugin::KernelDims& dims, int32_t kind, float gamma);

}  // namespace cae_winograd
