#include "error_bounds.hpp"

#include <cmath>

#include "suite.hpp"

namespace conformance {
namespace {

constexpr double kFloat32Unit = 0x1p-24;  // unit roundoff of float32
constexpr double kElementwise = 1e-5;
// sqrt(terms) * u with a margin of 8: many standard deviations of the
// rounding of a sum whose terms have one sign, the worst case of data.
constexpr double kAccumulationMargin = 8.0;

double accumulation(int64_t terms) {
  return kAccumulationMargin * kFloat32Unit * std::sqrt(double(terms > 1 ? terms : 1));
}

double precision_tolerance(cae_precision precision) {
  switch (precision) {
    case CAE_PRECISION_FP32:
      return 1e-5;
    case CAE_PRECISION_TF32:  // 10 explicit mantissa bits: 2 x 2^-10 when truncated
    case CAE_PRECISION_FP16:
      return 2.5e-3;
    case CAE_PRECISION_BF16:  // 7 explicit mantissa bits: 2 x 2^-7 when truncated
      return 2e-2;
  }
  return 2e-2;
}

cae_ref::Vec absolute(const cae_ref::Vec& v) {
  cae_ref::Vec a(v.size());
  for (size_t i = 0; i < v.size(); ++i) a[i] = std::abs(v[i]);
  return a;
}

}  // namespace

double elementwise_tolerance() { return kElementwise; }

double declared_precision_tolerance() { return precision_tolerance(suite().device.precision); }

double product_tolerance(int64_t terms) {
  return precision_tolerance(suite().device.precision) + accumulation(terms);
}

double reduction_tolerance(int64_t terms) { return kElementwise + accumulation(terms); }

namespace bounds {

Vec magnitude(const Vec& v) { return absolute(v); }

Vec conv_forward(const cae_ref::ConvDims& d, const Vec& x, const Vec& w, const Vec& b) {
  return cae_ref::conv2d_forward(d, absolute(x), absolute(w), absolute(b), false);
}

cae_ref::ConvGradients conv_backward(const cae_ref::ConvDims& d, const Vec& x, const Vec& w,
                                     const Vec& dy, bool want_dx) {
  return cae_ref::conv2d_backward(d, absolute(x), absolute(w), absolute(dy), want_dx);
}

Vec upsample_backward(const cae_ref::ImageDims& x_dims, const Vec& dy) {
  return cae_ref::upsample2x_backward(x_dims, absolute(dy));
}

MseScale mse(const Vec& pred, const Vec& target) {
  const double count = double(pred.size());
  MseScale s{0.0, Vec(pred.size())};
  for (size_t i = 0; i < pred.size(); ++i) {
    const double size = std::abs(pred[i]) + std::abs(target[i]);
    const double diff = std::abs(pred[i] - target[i]);
    s.loss += diff * diff + 2.0 * diff * size;
    s.grad[i] = 2.0 * size / count;
  }
  s.loss /= count;
  return s;
}

SgdScale sgd(const Vec& param, const Vec& grad, const Vec* velocity, double learning_rate,
             double momentum, double weight_decay) {
  SgdScale s{Vec(param.size()), Vec(param.size())};
  for (size_t i = 0; i < param.size(); ++i) {
    const double g = std::abs(grad[i]) + weight_decay * std::abs(param[i]);
    const double v = (velocity ? momentum * std::abs((*velocity)[i]) : 0.0) + g;
    s.velocity[i] = v;
    s.param[i] = std::abs(param[i]) + learning_rate * v;
  }
  return s;
}

AdamScale adam(const Vec& param, const Vec& grad, const Vec& m, const Vec& v, const Vec& v_new,
               const cae_ref::AdamParams& p) {
  const double c1 = 1.0 - std::pow(p.beta1, p.step);
  const double c2 = 1.0 - std::pow(p.beta2, p.step);
  AdamScale s{Vec(param.size()), Vec(param.size()), Vec(param.size())};
  for (size_t i = 0; i < param.size(); ++i) {
    const double g = std::abs(grad[i]) + p.weight_decay * std::abs(param[i]);
    s.m[i] = p.beta1 * std::abs(m[i]) + (1.0 - p.beta1) * g;
    // v's terms are non-negative; the square of a rounded g adds 2 |g| dg.
    s.v[i] = p.beta2 * std::abs(v[i]) + 2.0 * (1.0 - p.beta2) * g * g;
    // The update's magnitude with m replaced by its scale: covers the
    // rounding of m (which may cancel), of the bias corrections and of the
    // square root and division, twice over. |param| covers the float32
    // rounding of the new weights themselves.
    const double denominator = std::sqrt(std::abs(v_new[i]) / c2) + p.epsilon;
    s.param[i] = std::abs(param[i]) + 2.0 * p.learning_rate * (s.m[i] / c1) / denominator;
  }
  return s;
}

Vec kernel(const Vec& x, int64_t n, const Vec& y, int64_t m, int64_t d, cae_ref::KernelKind kind,
           double gamma, const Vec& k_ref) {
  const Vec ax = absolute(x), ay = absolute(y);
  Vec cross = cae_ref::kernel_matrix(ax, n, ay, m, d, cae_ref::KernelKind::linear, 0.0);
  if (kind == cae_ref::KernelKind::linear) return cross;
  Vec x_norm(n, 0.0), y_norm(m, 0.0);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t k = 0; k < d; ++k) x_norm[i] += x[i * d + k] * x[i * d + k];
  for (int64_t j = 0; j < m; ++j)
    for (int64_t k = 0; k < d; ++k) y_norm[j] += y[j * d + k] * y[j * d + k];
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < m; ++j) {
      const size_t at = size_t(i * m + j);
      cross[at] = std::abs(k_ref[at]) * (1.0 + gamma * (x_norm[i] + y_norm[j] + 2.0 * cross[at]));
    }
  }
  return cross;
}

}  // namespace bounds
}  // namespace conformance
