// Optimizer steps, element-wise and in place: SGD with momentum, and Adam.
#include <cmath>
#include <cstdint>

#include "cpu_context.hpp"
#include "cpu_ops.hpp"
#include "cpu_parallel.hpp"
#include "op_shapes.hpp"

namespace cae_cpu {

cae_status sgd_step(cae_context ctx, cae_tensor param, cae_tensor grad, cae_tensor velocity,
                    float learning_rate, float momentum, float weight_decay) {
  return cae_plugin::guard(ctx, [&] {
    const char* op = "sgd_step";
    cae_context_s& c = context_arg(ctx, op);
    const cae_tensor_s& P = tensor_arg(c, param, op, "param");
    const cae_tensor_s& G = tensor_arg(c, grad, op, "grad");
    const cae_tensor_s* V = optional_tensor_arg(c, velocity, op, "velocity");
    cae_plugin::check_sgd(P.shape, G.shape, V ? &V->shape : nullptr, learning_rate, momentum,
                          weight_decay);
    float* p = P.data();
    const float* g = G.data();
    float* v = V ? V->data() : nullptr;
    parallel_blocks(c.threads, P.count(), [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        const float step = g[i] + weight_decay * p[i];
        if (v) {
          v[i] = momentum * v[i] + step;
          p[i] -= learning_rate * v[i];
        } else {
          p[i] -= learning_rate * step;  // momentum == 0 without a velocity: plain SGD
        }
      }
    });
  });
}

cae_status adam_step(cae_context ctx, cae_tensor param, cae_tensor grad, cae_tensor m, cae_tensor v,
                     const cae_adam_params* params) {
  return cae_plugin::guard(ctx, [&] {
    const char* op = "adam_step";
    cae_context_s& c = context_arg(ctx, op);
    const cae_tensor_s& P = tensor_arg(c, param, op, "param");
    const cae_tensor_s& G = tensor_arg(c, grad, op, "grad");
    const cae_tensor_s& M = tensor_arg(c, m, op, "m");
    const cae_tensor_s& V = tensor_arg(c, v, op, "v");
    cae_plugin::check_adam(P.shape, G.shape, M.shape, V.shape, params);
    const cae_adam_params hp = *params;
    // Bias corrections once per call, in double: beta^step underflows
    // gracefully and 1 - beta^step keeps its digits for small steps.
    const float correction1 = static_cast<float>(1.0 - std::pow(double(hp.beta1), hp.step));
    const float correction2 = static_cast<float>(1.0 - std::pow(double(hp.beta2), hp.step));
    float* pp = P.data();
    const float* gp = G.data();
    float* mp = M.data();
    float* vp = V.data();
    parallel_blocks(c.threads, P.count(), [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        const float g = gp[i] + hp.weight_decay * pp[i];
        mp[i] = hp.beta1 * mp[i] + (1.0f - hp.beta1) * g;
        vp[i] = hp.beta2 * vp[i] + (1.0f - hp.beta2) * g * g;
        const float m_hat = mp[i] / correction1;
        const float v_hat = vp[i] / correction2;
        pp[i] -= hp.learning_rate * (m_hat / (std::sqrt(v_hat) + hp.epsilon));
      }
    });
  });
}

}  // namespace cae_cpu
