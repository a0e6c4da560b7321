// sgd_step and adam_step, which update param (and velocity, m, v) in place.
// Each new value is held to the error bound of the header's formula
// (error_bounds.hpp): the magnitude of every term it combines, the old weight
// included, since the new weight is rounded to float32 whatever the update.
// (Comparing the update new - old by a relative error instead failed correct
// backends at random: an m that cancels to almost nothing makes a tiny update
// whose float32 rounding is a large fraction of it.) Adam is also driven
// where its variants differ: gradients so small that epsilon dominates
// sqrt(v), large ones, the first step, and a thousand steps in.
#include <doctest/doctest.h>

#include <cmath>

#include "checks.hpp"
#include "compare.hpp"
#include "determinism.hpp"
#include "error_bounds.hpp"
#include "random_data.hpp"
#include "report.hpp"
#include "shapes.hpp"
#include "suite.hpp"

namespace conformance {
namespace {

// ---- SGD ------------------------------------------------------------------

struct SgdCase {
  Dims dims;
  float momentum, weight_decay;
  bool with_velocity;
  std::string label() const {
    return "param" + dims_str(dims) + " momentum " + num(momentum) + " wd " + num(weight_decay) +
           (with_velocity ? "" : " velocity=NULL");
  }
};

constexpr float kLearningRate = 0.05f;

std::vector<SgdCase> sgd_cases(bool quick) {
  std::vector<SgdCase> cases;
  for (const Dims& dims : elementwise_shapes(quick)) cases.push_back({dims, 0.9f, 1e-2f, true});
  const Dims shape = {3, 5, 9, 12};
  cases.push_back({shape, 0.0f, 0.0f, false});   // plain SGD
  cases.push_back({shape, 0.0f, 1e-2f, false});  // plain SGD with weight decay
  cases.push_back({shape, 0.0f, 1e-2f, true});   // velocity becomes the gradient
  return cases;
}

struct SgdState {
  std::vector<float> param, grad, velocity;
};

SgdState run_sgd(const SgdCase& c, const SgdState& start) {
  cae::Tensor param = upload_tensor(c.dims, start.param);
  cae::Tensor grad = upload_tensor(c.dims, start.grad);
  cae::Tensor velocity;
  if (c.with_velocity) velocity = upload_tensor(c.dims, start.velocity);
  ctx().sgd_step(param, grad, c.with_velocity ? &velocity : nullptr, kLearningRate, c.momentum,
                 c.weight_decay);
  return {download(param), start.grad, c.with_velocity ? download(velocity) : start.velocity};
}

SgdState random_sgd_state(Random& rng, const Dims& dims) {
  const int64_t n = count_of(dims);
  return {rng.uniform(n, -1.0f, 1.0f), rng.uniform(n, -1.0f, 1.0f), rng.uniform(n, -1.0f, 1.0f)};
}

void check_sgd(const SgdCase& c, const std::string& label) {
  Random rng = random_for("sgd_step", label);
  const SgdState start = random_sgd_state(rng, c.dims);
  const SgdState got = run_sgd(c, start);
  cae_ref::Vec param = widen(start.param), velocity = widen(start.velocity);
  const cae_ref::Vec old_velocity = velocity;
  cae_ref::sgd_step(param, widen(start.grad), c.with_velocity ? &velocity : nullptr, kLearningRate,
                    c.momentum, c.weight_decay);
  const bounds::SgdScale scale =
      bounds::sgd(widen(start.param), widen(start.grad), c.with_velocity ? &old_velocity : nullptr,
                  kLearningRate, c.momentum, c.weight_decay);
  expect_within("sgd_step", label + " param", got.param, param, scale.param,
                elementwise_tolerance(), c.dims);
  if (c.with_velocity) {
    expect_within("sgd_step", label + " velocity", got.velocity, velocity, scale.velocity,
                  elementwise_tolerance(), c.dims);
  }
}

// ---- Adam -----------------------------------------------------------------

// Where the inputs lie: Adam's variants (epsilon inside the square root or
// not bias-corrected, no bias correction, decay applied elsewhere) agree for
// ordinary gradients and part where epsilon rivals sqrt(v) or the bias
// corrections are far from 1.
enum class AdamRegime { ordinary, tiny, large };

const char* regime_name(AdamRegime r) {
  switch (r) {
    case AdamRegime::ordinary:
      return "";
    case AdamRegime::tiny:
      return " tiny grads";
    case AdamRegime::large:
      return " large grads";
  }
  return "";
}

struct AdamCase {
  Dims dims;
  int32_t step;
  float weight_decay;
  AdamRegime regime = AdamRegime::ordinary;
  std::string label() const {
    return "param" + dims_str(dims) + " step " + std::to_string(step) + " wd " + num(weight_decay) +
           regime_name(regime);
  }
  cae_adam_params params() const {
    return {kLearningRate, 0.9f, 0.999f, 1e-8f, weight_decay, step};
  }
};

std::vector<AdamCase> adam_cases(bool quick) {
  std::vector<AdamCase> cases;
  for (const Dims& dims : elementwise_shapes(quick)) cases.push_back({dims, 7, 1e-2f});
  const Dims shape = {3, 5, 9, 12};
  cases.push_back({shape, 1, 0.0f});  // the first step, from m = v = 0
  for (AdamRegime regime : {AdamRegime::tiny, AdamRegime::large}) {
    for (int32_t step : {1, 7, 1000}) {
      for (float wd : {0.0f, 1e-2f}) cases.push_back({shape, step, wd, regime});
    }
  }
  cases.push_back({shape, 1000, 0.0f});  // bias corrections near 1 (beta2's still 0.63)
  return cases;
}

struct AdamState {
  std::vector<float> param, grad, m, v;
};

// Magnitudes log-uniform in [lo, hi], random signs.
std::vector<float> signed_log_uniform(Random& rng, int64_t count, float lo, float hi) {
  std::vector<float> v(static_cast<size_t>(count));
  const float log_lo = std::log(lo), log_hi = std::log(hi);
  for (float& e : v) {
    e = std::exp(rng.uniform(log_lo, log_hi));
    if (rng.index(2) == 0) e = -e;
  }
  return v;
}

// Magnitudes of grad, m and v (m and v: a state `step - 1` steps in).
struct RegimeRanges {
  float grad_lo, grad_hi, m_lo, m_hi, v_lo, v_hi;
};

RegimeRanges ranges(AdamRegime regime) {
  switch (regime) {
    case AdamRegime::tiny:  // sqrt(v) around epsilon = 1e-8
      return {1e-9f, 1e-7f, 1e-10f, 1e-8f, 1e-18f, 1e-14f};
    case AdamRegime::large:
      return {1e2f, 1e4f, 1e1f, 1e3f, 1e4f, 1e8f};
    case AdamRegime::ordinary:
      break;
  }
  return {0.0f, 1.0f, 0.0f, 0.1f, 1e-4f, 1e-2f};
}

AdamState random_adam_state(Random& rng, const AdamCase& c) {
  const int64_t n = count_of(c.dims);
  const RegimeRanges r = ranges(c.regime);
  AdamState s{
      rng.uniform(n, -1.0f, 1.0f), {}, std::vector<float>(n, 0.0f), std::vector<float>(n, 0.0f)};
  if (c.regime == AdamRegime::ordinary) {
    s.grad = rng.uniform(n, -1.0f, 1.0f);
    if (c.step > 1) {  // a state some steps in: m around the gradients, v > 0
      s.m = rng.uniform(n, -r.m_hi, r.m_hi);
      s.v = rng.uniform(n, r.v_lo, r.v_hi);
    }
    return s;
  }
  s.grad = signed_log_uniform(rng, n, r.grad_lo, r.grad_hi);
  if (c.step > 1) {
    s.m = signed_log_uniform(rng, n, r.m_lo, r.m_hi);
    s.v = signed_log_uniform(rng, n, r.v_lo, r.v_hi);
    for (float& e : s.v) e = std::abs(e);
  }
  return s;
}

AdamState run_adam(const AdamCase& c, const AdamState& start) {
  cae::Tensor param = upload_tensor(c.dims, start.param);
  cae::Tensor grad = upload_tensor(c.dims, start.grad);
  cae::Tensor m = upload_tensor(c.dims, start.m), v = upload_tensor(c.dims, start.v);
  const cae_adam_params p = c.params();
  ctx().adam_step(param, grad, m, v, p);
  return {download(param), start.grad, download(m), download(v)};
}

void check_adam(const AdamCase& c, const std::string& label) {
  Random rng = random_for("adam_step", label);
  const AdamState start = random_adam_state(rng, c);
  const AdamState got = run_adam(c, start);
  cae_ref::Vec param = widen(start.param), m = widen(start.m), v = widen(start.v);
  const cae_adam_params p = c.params();
  const cae_ref::AdamParams ref_params{p.learning_rate, p.beta1,        p.beta2,
                                       p.epsilon,       p.weight_decay, p.step};
  cae_ref::adam_step(param, widen(start.grad), m, v, ref_params);
  const bounds::AdamScale scale = bounds::adam(widen(start.param), widen(start.grad),
                                               widen(start.m), widen(start.v), v, ref_params);
  const double tol = elementwise_tolerance();
  expect_within("adam_step", label + " param", got.param, param, scale.param, tol, c.dims);
  expect_within("adam_step", label + " m", got.m, m, scale.m, tol, c.dims);
  expect_within("adam_step", label + " v", got.v, v, scale.v, tol, c.dims);
}

}  // namespace

void check_sgd_step() {
  const char* op = "sgd_step";
  if (!require_member(op, CAE_TABLE_HAS(&table(), sgd_step))) return;
  for (const SgdCase& c : sgd_cases(suite().quick)) {
    const std::string label = c.label();
    SUBCASE(label.c_str()) {
      guarded(op, label, [&] { check_sgd(c, label); });
    }
  }
  SUBCASE("determinism") {
    const SgdCase c{elementwise_shapes(suite().quick).back(), 0.9f, 1e-2f, true};
    Random rng = random_for(op, "determinism");
    const SgdState start = random_sgd_state(rng, c.dims);
    expect_deterministic(op, c.label(), [&] {
      const SgdState s = run_sgd(c, start);
      return Outputs{{"param", s.param}, {"velocity", s.velocity}};
    });
  }
}

void check_adam_step() {
  const char* op = "adam_step";
  if (!require_member(op, CAE_TABLE_HAS(&table(), adam_step))) return;
  for (const AdamCase& c : adam_cases(suite().quick)) {
    const std::string label = c.label();
    SUBCASE(label.c_str()) {
      guarded(op, label, [&] { check_adam(c, label); });
    }
  }
  SUBCASE("determinism") {
    const AdamCase c{elementwise_shapes(suite().quick).back(), 7, 1e-2f};
    Random rng = random_for(op, "determinism");
    const AdamState start = random_adam_state(rng, c);
    expect_deterministic(op, c.label(), [&] {
      const AdamState s = run_adam(c, start);
      return Outputs{{"param", s.param}, {"m", s.m}, {"v", s.v}};
    });
  }
}

}  // namespace conformance
