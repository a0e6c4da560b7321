// v2's device side. The ops the shared entry points call are declared in
// cuda_device_ops.hpp and defined in v2's .cu files (the element-wise ops with
// several operands in v2_device_ops.cpp, which brings them to one order);
// below are v2's own. Pointers are device memory in v2's stored order (4-D
// tensors channel-major, see v2_tensor.hpp); everything is queued on ctx.stream.
#pragma once

#include <cstdint>

#include "cuda_device_ops.hpp"
#include "op_shapes.hpp"
#include "v2_context.hpp"

namespace cae_v2 {

// Conversions between the boundary order and the stored order of a tensor.
void boundary_to_stored(Context& ctx, const cae_plugin::Shape& shape, const float* boundary,
                        float* stored);
void stored_to_boundary(Context& ctx, const cae_plugin::Shape& shape, const float* stored,
                        float* boundary);

// out[r] = sum over c of in[r][c] (or of its square), deterministic.
enum class RowTerm { value, square };
void row_sums(Context& ctx, const float* in, int64_t rows, int64_t cols, RowTerm term, float* out);

// The element-wise kernels of cuda_device_ops.hpp's multi-operand ops, on
// operands already in one order (v2_common_order.hpp).
// loss[0] = sum((pred - target)^2) / count; grad (may be nullptr) = 2 (pred - target) / count.
void mse_loss(Context& ctx, const float* pred, const float* target, int64_t count, float* loss,
              float* grad);
// velocity may be nullptr (momentum 0).
void sgd_step(Context& ctx, float* param, const float* grad, float* velocity, int64_t count,
              float learning_rate, float momentum, float weight_decay);
void adam_step(Context& ctx, float* param, const float* grad, float* m, float* v, int64_t count,
               const cae_adam_params& params);

}  // namespace cae_v2
