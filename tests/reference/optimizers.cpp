// Reference optimizer steps: SGD with heavy-ball momentum, and Adam.
#include <cmath>

#include "reference_ops.hpp"
#include "size_check.hpp"

namespace cae_ref {

void sgd_step(Vec& param, const Vec& grad, Vec* velocity, double learning_rate, double momentum,
              double weight_decay) {
  const int64_t count = static_cast<int64_t>(param.size());
  require_size("sgd_step", "grad", grad, count);
  require_that(velocity != nullptr || momentum == 0.0, "sgd_step",
               "velocity may be omitted only with momentum 0");
  if (velocity) require_size("sgd_step", "velocity", *velocity, count);
  for (int64_t i = 0; i < count; ++i) {
    const double g = grad[i] + weight_decay * param[i];
    if (velocity) {
      (*velocity)[i] = momentum * (*velocity)[i] + g;
      param[i] -= learning_rate * (*velocity)[i];
    } else {
      param[i] -= learning_rate * g;
    }
  }
}

void adam_step(Vec& param, const Vec& grad, Vec& m, Vec& v, const AdamParams& p) {
  const int64_t count = static_cast<int64_t>(param.size());
  require_size("adam_step", "grad", grad, count);
  require_size("adam_step", "m", m, count);
  require_size("adam_step", "v", v, count);
  require_that(p.step >= 1, "adam_step", "step must be >= 1");
  const double m_correction = 1.0 - std::pow(p.beta1, p.step);
  const double v_correction = 1.0 - std::pow(p.beta2, p.step);
  for (int64_t i = 0; i < count; ++i) {
    const double g = grad[i] + p.weight_decay * param[i];
    m[i] = p.beta1 * m[i] + (1.0 - p.beta1) * g;
    v[i] = p.beta2 * v[i] + (1.0 - p.beta2) * g * g;
    const double m_hat = m[i] / m_correction;
    const double v_hat = v[i] / v_correction;
    param[i] -= p.learning_rate * m_hat / (std::sqrt(v_hat) + p.epsilon);
  }
}

}  // namespace cae_ref
