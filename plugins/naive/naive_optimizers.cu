// SGD with momentum and Adam: one thread per parameter, in place. Tensors of
// different shapes (same element count) are matched by StorageOrder.
#include <cmath>

#include "naive_kernels.cuh"
#include "naive_ops.hpp"
#include "naive_storage_index.cuh"

namespace naive {
namespace {

// velocity is nullptr for plain SGD (momentum == 0).
__global__ void sgd_kernel(float* param, const float* grad, float* velocity, int64_t count,
                           float learning_rate, float momentum, float weight_decay,
                           StorageOrder param_order, StorageOrder grad_order,
                           StorageOrder velocity_order) {
  for (int64_t i = global_thread_index(); i < count; i += grid_thread_count()) {
    const int64_t p = storage_index(param_order, i);
    const float g = grad[storage_index(grad_order, i)] + weight_decay * param[p];
    float step = g;
    if (velocity) {
      const int64_t v = storage_index(velocity_order, i);
      step = momentum * velocity[v] + g;
      velocity[v] = step;
    }
    param[p] -= learning_rate * step;
  }
}

// bias1 = 1 - beta1^step and bias2 = 1 - beta2^step, computed once on the host.
__global__ void adam_kernel(float* param, const float* grad, float* m, float* v, int64_t count,
                            cae_adam_params hp, float bias1, float bias2, StorageOrder param_order,
                            StorageOrder grad_order, StorageOrder m_order, StorageOrder v_order) {
  for (int64_t i = global_thread_index(); i < count; i += grid_thread_count()) {
    const int64_t p = storage_index(param_order, i);
    const int64_t mi = storage_index(m_order, i);
    const int64_t vi = storage_index(v_order, i);
    const float g = grad[storage_index(grad_order, i)] + hp.weight_decay * param[p];
    const float m_new = hp.beta1 * m[mi] + (1.0f - hp.beta1) * g;
    const float v_new = hp.beta2 * v[vi] + (1.0f - hp.beta2) * g * g;
    m[mi] = m_new;
    v[vi] = v_new;
    param[p] -= hp.learning_rate * (m_new / bias1) / (sqrtf(v_new / bias2) + hp.epsilon);
  }
}

}  // namespace

void sgd_step(cae_context_s& ctx, cae_tensor_s& param, const cae_tensor_s& grad,
              cae_tensor_s* velocity, float learning_rate, float momentum, float weight_decay) {
  const auto orders = elementwise_orders({&param, &grad, velocity});
  const int64_t count = param.shape.count();
  sgd_kernel<<<blocks_for(count), kThreadsPerBlock, 0, ctx.stream>>>(
      param.data, grad.data, velocity ? velocity->data : nullptr, count, learning_rate, momentum,
      weight_decay, orders[0], orders[1], orders[2]);
  CAE_CUDA_CHECK_LAUNCH("sgd_kernel");
}

void adam_step(cae_context_s& ctx, cae_tensor_s& param, const cae_tensor_s& grad, cae_tensor_s& m,
               cae_tensor_s& v, const cae_adam_params& params) {
  const auto orders = elementwise_orders({&param, &grad, &m, &v});
  const int64_t count = param.shape.count();
  const float bias1 = static_cast<float>(1.0 - std::pow(double{params.beta1}, params.step));
  const float bias2 = static_cast<float>(1.0 - std::pow(double{params.beta2}, params.step));
  adam_kernel<<<blocks_for(count), kThreadsPerBlock, 0, ctx.stream>>>(
      param.data, grad.data, m.data, v.data, count, params, bias1, bias2, orders[0], orders[1],
      orders[2], orders[3]);
  CAE_CUDA_CHECK_LAUNCH("adam_kernel");
}

}  // namespace naive
