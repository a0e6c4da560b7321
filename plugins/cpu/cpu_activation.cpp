// ReLU, forward and backward, element-wise (both may run in place).
#include <algorithm>

#include "cpu_context.hpp"
#include "cpu_ops.hpp"
#include "cpu_parallel.hpp"
#include "op_shapes.hpp"

namespace cae_cpu {

cae_status relu_forward(cae_context ctx, cae_tensor x, cae_tensor y) {
  return cae_plugin::guard(ctx, [&] {
    const char* op = "relu_forward";
    cae_context_s& c = context_arg(ctx, op);
    const cae_tensor_s& X = tensor_arg(c, x, op, "x");
    const cae_tensor_s& Y = tensor_arg(c, y, op, "y");
    cae_plugin::check_same_shape(op, "y", Y.shape, "x", X.shape);
    const float* in = X.data();
    float* out = Y.data();  // may be `in`: each element is read before it is written
    parallel_blocks(c.threads, X.count(), [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) out[i] = std::max(in[i], 0.0f);
    });
  });
}

cae_status relu_backward(cae_context ctx, cae_tensor y, cae_tensor dy, cae_tensor dx) {
  return cae_plugin::guard(ctx, [&] {
    const char* op = "relu_backward";
    cae_context_s& c = context_arg(ctx, op);
    const cae_tensor_s& Y = tensor_arg(c, y, op, "y");
    const cae_tensor_s& DY = tensor_arg(c, dy, op, "dy");
    const cae_tensor_s& DX = tensor_arg(c, dx, op, "dx");
    cae_plugin::check_same_shape(op, "dy", DY.shape, "y", Y.shape);
    cae_plugin::check_same_shape(op, "dx", DX.shape, "y", Y.shape);
    const float* out = Y.data();
    const float* grad_out = DY.data();
    float* grad_in = DX.data();  // may be grad_out
    parallel_blocks(c.threads, Y.count(), [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        // Both loads unconditional: the select then vectorises instead of
        // becoming a data-dependent (unpredictable) branch.
        const float g = grad_out[i];
        grad_in[i] = out[i] > 0.0f ? g : 0.0f;
      }
    });
  });
}

}  // namespace cae_cpu
