// Element-wise optimizer updates, in place on the parameters and their state.
#pragma once

#include <cstdint>

namespace v1 {

constexpr unsigned kOptimizerThreads = 256;

// g = grad + weight_decay * param; velocity = momentum * velocity + g;
// param -= learning_rate * velocity. With velocity == nullptr (momentum 0):
// param -= learning_rate * g.
__global__ void sgd_step_kernel(float* param, const float* grad, float* velocity, int64_t count,
                                float learning_rate, float momentum, float weight_decay) {
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += stride) {
    const float p = param[i];
    const float g = grad[i] + weight_decay * p;
    float step = g;
    if (velocity != nullptr) {
      // With momentum 0 the old velocity is not read: 0 * NaN would be NaN.
      step = momentum != 0.0f ? momentum * velocity[i] + g : g;
      velocity[i] = step;
    }
    param[i] = p - learning_rate * step;
  }
}

// Adam with bias correction; correction1 = 1 - beta1^step and
// correction2 = 1 - beta2^step come from the host.
__global__ void adam_step_kernel(float* param, const float* grad, float* m, float* v, int64_t count,
                                 float learning_rate, float beta1, float beta2, float epsilon,
                                 float weight_decay, float correction1, float correction2) {
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += stride) {
    const float p = param[i];
    const float g = grad[i] + weight_decay * p;
    const float m_new = beta1 * m[i] + (1.0f - beta1) * g;
    const float v_new = beta2 * v[i] + (1.0f - beta2) * g * g;
    m[i] = m_new;
    v[i] = v_new;
    const float m_hat = m_new / correction1;
    const float v_hat = v_new / correction2;
    param[i] = p - learning_rate * m_hat / (sqrtf(v_hat) + epsilon);
  }
}

}  // namespace v1
