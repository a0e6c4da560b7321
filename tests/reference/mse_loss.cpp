// Reference mean squared error: value and gradient.
#include "reference_ops.hpp"
#include "size_check.hpp"

namespace cae_ref {

MseResult mse_loss(const Vec& pred, const Vec& target) {
  require_size("mse_loss", "target", target, static_cast<int64_t>(pred.size()));
  require_that(!pred.empty(), "mse_loss", "no elements");
  const double count = static_cast<double>(pred.size());
  MseResult r{0.0, Vec(pred.size())};
  for (size_t i = 0; i < pred.size(); ++i) {
    const double diff = pred[i] - target[i];
    r.loss += diff * diff;
    r.grad[i] = 2.0 * diff / count;
  }
  r.loss /= count;
  return r;
}

}  // namespace cae_ref
