// The naive backend's ops on validated tensors. The ABI entry points
// (naive_entry_points.cpp) check handles and shapes, then call these, which
// queue kernels on the context's stream.
#pragma once

#include "naive_context.hpp"
#include "op_shapes.hpp"

namespace naive {

void conv2d_forward(cae_context_s& ctx, const cae_tensor_s& x, const cae_tensor_s& w,
                    const cae_tensor_s& b, cae_tensor_s& y, const cae_plugin::ConvDims& dims,
                    bool fuse_relu);
// dx may be nullptr (not requested).
void conv2d_backward(cae_context_s& ctx, const cae_tensor_s& x, const cae_tensor_s& w,
                     const cae_tensor_s& dy, cae_tensor_s* dx, cae_tensor_s& dw, cae_tensor_s& db,
                     const cae_plugin::ConvDims& dims);

// y may be x; dx may be dy.
void relu_forward(cae_context_s& ctx, const cae_tensor_s& x, cae_tensor_s& y);
void relu_backward(cae_context_s& ctx, const cae_tensor_s& y, const cae_tensor_s& dy,
                   cae_tensor_s& dx);

void maxpool2x2_forward(cae_context_s& ctx, const cae_tensor_s& x, cae_tensor_s& y);
void maxpool2x2_backward(cae_context_s& ctx, const cae_tensor_s& x, const cae_tensor_s& dy,
                         cae_tensor_s& dx);
void upsample2x_forward(cae_context_s& ctx, const cae_tensor_s& x, cae_tensor_s& y);
void upsample2x_backward(cae_context_s& ctx, const cae_tensor_s& dy, cae_tensor_s& dx);

// grad may be nullptr.
void mse_loss(cae_context_s& ctx, const cae_tensor_s& pred, const cae_tensor_s& target,
              cae_tensor_s& loss, cae_tensor_s* grad);

// velocity may be nullptr (momentum == 0).
void sgd_step(cae_context_s& ctx, cae_tensor_s& param, const cae_tensor_s& grad,
              cae_tensor_s* velocity, float learning_rate, float momentum, float weight_decay);
void adam_step(cae_context_s& ctx, cae_tensor_s& param, const cae_tensor_s& grad, cae_tensor_s& m,
               cae_tensor_s& v, const cae_adam_params& params);

// x may be y.
void kernel_matrix(cae_context_s& ctx, const cae_tensor_s& x, const cae_tensor_s& y,
                   cae_tensor_s& k, const cae_plugin::KernelDims& dims, cae_kernel_kind kind,
                   float gamma);

}  // namespace naive
