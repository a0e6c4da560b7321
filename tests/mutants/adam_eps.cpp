// adam-eps: Adam in the "efficient" form of Kingma & Ba (section 2),
//   param -= lr * sqrt(1 - beta2^t) / (1 - beta1^t) * m / (sqrt(v) + eps),
// which puts epsilon outside the bias correction: it equals the header's
// update only while sqrt(v_hat) >> eps, so tiny gradients tell them apart.
#include <cmath>

#include "mutant_core.hpp"

namespace mutant {
namespace {

cae_status adam_step(cae_context ctx, cae_tensor param, cae_tensor grad, cae_tensor m, cae_tensor v,
                     const cae_adam_params* params) {
  // The base op validates everything (shapes, params); a mutant only mutates
  // calls that are valid. Its update is then replaced from the old state.
  if (!params || !tracked({param, grad, m, v})) {
    return base().adam_step(ctx, param, grad, m, v, params);
  }
  return run([&] {
    std::vector<float> p = download(ctx, param), mean = download(ctx, m), second = download(ctx, v);
    const std::vector<float> g_in = download(ctx, grad);
    check(base().adam_step(ctx, param, grad, m, v, params));
    const cae_adam_params hp = *params;
    const double correction1 = 1.0 - std::pow(double(hp.beta1), hp.step);
    const double correction2 = 1.0 - std::pow(double(hp.beta2), hp.step);
    const float step_size =
        static_cast<float>(hp.learning_rate * std::sqrt(correction2) / correction1);
    for (size_t i = 0; i < p.size(); ++i) {
      const float g = g_in[i] + hp.weight_decay * p[i];
      mean[i] = hp.beta1 * mean[i] + (1.0f - hp.beta1) * g;
      second[i] = hp.beta2 * second[i] + (1.0f - hp.beta2) * g * g;
      p[i] -= step_size * (mean[i] / (std::sqrt(second[i]) + hp.epsilon));
    }
    upload(ctx, param, p);
    upload(ctx, m, mean);
    upload(ctx, v, second);
  });
}

}  // namespace

void mutate(cae_backend_table& table) { table.adam_step = adam_step; }

}  // namespace mutant
