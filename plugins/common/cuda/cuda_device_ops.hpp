// What a backend on the shared op entries (cuda_tensor_entries.hpp,
// cuda_op_entries.hpp) defines: the device side of every op and the few
// points where backends differ around it (their tensors' stored order, caches
// keyed by a tensor's writes). v2 and winograd are such backends.
//
// Each backend is a library of its own, so each defines these same names once
// (as the runtime's backends define cae_cuda::conv2d_forward). The entry
// points have validated every argument and made the context's device current;
// pointers are device memory in the backend's stored order, and everything is
// queued on the context's stream.
#pragma once

#include <cae/backend.h>

#include <cstddef>
#include <cstdint>

#include "op_shapes.hpp"

namespace cae_plugin {
namespace cuda {
namespace device_ops {

using Context = cae_context_s;

// ---- the tensors ------------------------------------------------------------

// A tensor was allocated (its shape, data and bytes set) / is about to be freed.
void tensor_allocated(Context& ctx, cae_tensor_s& t);
void tensor_freeing(Context& ctx, cae_tensor_s& t);
// `count` floats in the boundary order (NCHW / OIHW / row-major) from host
// memory `src` into `t`; src may be reused when the call returns.
void upload(Context& ctx, cae_tensor_s& t, const float* src, size_t count);
// Device memory holding `t` in the boundary order, valid until the next op:
// what tensor_download copies to the host.
const float* boundary_order(Context& ctx, const cae_tensor_s& t, size_t count);
// Called for every output (t may be nullptr) before an op writes it.
void writing(Context& ctx, cae_tensor_s* t);

// ---- the ops ----------------------------------------------------------------

void conv2d_forward(Context& ctx, const ConvDims& d, const cae_tensor_s& x, const cae_tensor_s& w,
                    const float* b, float* y, bool relu);
// dx may be nullptr.
void conv2d_backward(Context& ctx, const ConvDims& d, const cae_tensor_s& x,
                     const cae_tensor_s& w, const float* dy, float* dx, float* dw, float* db);

void relu_forward(Context& ctx, const float* x, float* y, int64_t count);
void relu_backward(Context& ctx, const float* y, const float* dy, float* dx, int64_t count);
// Shapes are those of the large tensor (the pool's input, the upsample's output).
void maxpool2x2_forward(Context& ctx, const Shape& x_shape, const float* x, float* y);
void maxpool2x2_backward(Context& ctx, const Shape& x_shape, const float* x, const float* dy,
                         float* dx);
// Shapes are those of the small tensor (the upsample's input).
void upsample2x_forward(Context& ctx, const Shape& x_shape, const float* x, float* y);
void upsample2x_backward(Context& ctx, const Shape& dx_shape, const float* dy, float* dx);

// The element-wise ops with several operands take tensors: their operands
// have equal counts but may differ in shape, hence in a backend's stored order.
// loss[0] = sum((pred - target)^2) / count; grad (may be nullptr) = 2 (pred - target) / count.
void mse_loss(Context& ctx, cae_tensor_s& pred, cae_tensor_s& target, cae_tensor_s& loss,
              cae_tensor_s* grad);
// velocity may be nullptr (momentum 0).
void sgd_step(Context& ctx, cae_tensor_s& param, cae_tensor_s& grad, cae_tensor_s* velocity,
              float learning_rate, float momentum, float weight_decay);
void adam_step(Context& ctx, cae_tensor_s& param, cae_tensor_s& grad, cae_tensor_s& m,
               cae_tensor_s& v, const cae_adam_params& params);

void kernel_matrix(Context& ctx, const float* x, const float* y, float* k, const KernelDims& dims,
                   int32_t kind, float gamma);

}  // namespace device_ops
}  // namespace cuda
}  // namespace cae_plugin
