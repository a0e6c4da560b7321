// Reference ReLU, forward and backward.
#include "reference_ops.hpp"
#include "size_check.hpp"

namespace cae_ref {

Vec relu_forward(const Vec& x) {
  Vec y(x.size());
  for (size_t i = 0; i < x.size(); ++i) y[i] = x[i] > 0.0 ? x[i] : 0.0;
  return y;
}

Vec relu_backward(const Vec& y, const Vec& dy) {
  require_size("relu_backward", "dy", dy, static_cast<int64_t>(y.size()));
  Vec dx(y.size());
  for (size_t i = 0; i < y.size(); ++i) dx[i] = y[i] > 0.0 ? dy[i] : 0.0;
  return dx;
}

}  // namespace cae_ref
