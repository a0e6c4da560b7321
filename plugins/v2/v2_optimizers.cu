// SGD and Adam steps on the GPU.
#include <cmath>

#include "v2_launch.cuh"
#include "v2_ops.hpp"
#include "v2_optimizer_kernels.cuh"

namespace cae_v2 {

void sgd_step(Context& ctx, float* param, const float* grad, float* velocity, int64_t count,
              float learning_rate, float momentum, float weight_decay) {
  launch_for_each(SgdStep{param, grad, velocity, count, learning_rate, momentum, weight_decay},
                  ctx.stream, "sgd_step");
}

void adam_step(Context& ctx, float* param, const float* grad, float* m, float* v, int64_t count,
               const cae_adam_params& p) {
  // The bias corrections once per call, in double: 1 - beta^step is a
  // difference of nearly equal numbers, whose relative error in float would
  // approach 1e-4 for beta2 = 0.999 and small steps.
  const float correction1 = static_cast<float>(1.0 - std::pow(double(p.beta1), p.step));
  const float correction2 = static_cast<float>(1.0 - std::pow(double(p.beta2), p.step));
  launch_for_each(AdamStep{param, grad, m, v, count, p.learning_rate, p.beta1, p.beta2, p.epsilon,
                           p.weight_decay, correction1, correction2},
                  ctx.stream, "adam_step");
}

}  // namespace cae_v2
