// sgd_step and adam_step launchers.
#include <cmath>

#include "v1_launch.hpp"
#include "v1_ops.hpp"
#include "v1_optimizer_kernels.cuh"

namespace v1 {

void sgd_step(cae_context_s& ctx, float* param, const float* grad, float* velocity, int64_t count,
              float learning_rate, float momentum, float weight_decay) {
  launch("launch of sgd_step_kernel", sgd_step_kernel,
         dim3(cae_plugin::cuda::grid_for(count, kOptimizerThreads)), dim3(kOptimizerThreads),
         ctx.stream, param, grad, velocity, count, learning_rate, momentum, weight_decay);
}

void adam_step(cae_context_s& ctx, float* param, const float* grad, float* m, float* v,
               int64_t count, const cae_adam_params& params) {
  // Bias corrections in double on the host: beta^step for large steps
  // underflows gracefully and 1 - beta^step keeps its precision.
  const float correction1 =
      static_cast<float>(1.0 - std::pow(static_cast<double>(params.beta1), params.step));
  const float correction2 =
      static_cast<float>(1.0 - std::pow(static_cast<double>(params.beta2), params.step));
  launch("launch of adam_step_kernel", adam_step_kernel,
         dim3(cae_plugin::cuda::grid_for(count, kOptimizerThreads)), dim3(kOptimizerThreads),
         ctx.stream, param, grad, m, v, count, params.learning_rate, params.beta1, params.beta2,
         params.epsilon, params.weight_decay, correction1, correction2);
}

}  // namespace v1
