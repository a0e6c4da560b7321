// sgd_step and adam_step, which update param (and velocity, m, v) in place.
// The param check compares the UPDATE (new - old) with the reference's, so
// that an error in the step is not hidden by the size of the weights.
#include <doctest/doctest.h>

#include "checks.hpp"
#include "compare.hpp"
#include "determinism.hpp"
#include "random_data.hpp"
#include "report.hpp"
#include "shapes.hpp"
#include "suite.hpp"

namespace conformance {
namespace {

std::vector<float> minus(const std::vector<float>& a, const std::vector<float>& b) {
  std::vector<float> d(a.size());
  for (size_t i = 0; i < a.size(); ++i) d[i] = a[i] - b[i];
  return d;
}

cae_ref::Vec minus(const cae_ref::Vec& a, const std::vector<float>& b) {
  cae_ref::Vec d(a.size());
  for (size_t i = 0; i < a.size(); ++i) d[i] = a[i] - double(b[i]);
  return d;
}

// The float update new - old against the reference's update in float64: the
// rounding of the new weights to float32 is part of what a backend may lose.
// A NaN in the new weights stays NaN in the difference, so it still fails.
void expect_update(const std::string& op, const std::string& what, const std::vector<float>& old,
                   const std::vector<float>& got, const cae_ref::Vec& want, const Dims& dims) {
  expect_close(op, what + " param update", minus(got, old), minus(want, old), dims);
}

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
  return {param.download(), start.grad, c.with_velocity ? velocity.download() : start.velocity};
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
  cae_ref::sgd_step(param, widen(start.grad), c.with_velocity ? &velocity : nullptr, kLearningRate,
                    c.momentum, c.weight_decay);
  expect_update("sgd_step", label, start.param, got.param, param, c.dims);
  if (c.with_velocity)
    expect_close("sgd_step", label + " velocity", got.velocity, velocity, c.dims);
}

// ---- Adam -----------------------------------------------------------------

struct AdamCase {
  Dims dims;
  int32_t step;
  float weight_decay;
  std::string label() const {
    return "param" + dims_str(dims) + " step " + std::to_string(step) + " wd " + num(weight_decay);
  }
  cae_adam_params params() const {
    return {kLearningRate, 0.9f, 0.999f, 1e-8f, weight_decay, step};
  }
};

std::vector<AdamCase> adam_cases(bool quick) {
  std::vector<AdamCase> cases;
  for (const Dims& dims : elementwise_shapes(quick)) cases.push_back({dims, 7, 1e-2f});
  cases.push_back({{3, 5, 9, 12}, 1, 0.0f});  // the first step, from m = v = 0
  return cases;
}

struct AdamState {
  std::vector<float> param, grad, m, v;
};

AdamState run_adam(const AdamCase& c, const AdamState& start) {
  cae::Tensor param = upload_tensor(c.dims, start.param);
  cae::Tensor grad = upload_tensor(c.dims, start.grad);
  cae::Tensor m = upload_tensor(c.dims, start.m), v = upload_tensor(c.dims, start.v);
  const cae_adam_params p = c.params();
  ctx().adam_step(param, grad, m, v, p);
  return {param.download(), start.grad, m.download(), v.download()};
}

AdamState random_adam_state(Random& rng, const AdamCase& c) {
  const int64_t n = count_of(c.dims);
  AdamState s{rng.uniform(n, -1.0f, 1.0f), rng.uniform(n, -1.0f, 1.0f), std::vector<float>(n, 0.0f),
              std::vector<float>(n, 0.0f)};
  if (c.step > 1) {  // a state some steps in: m around the gradients, v > 0
    s.m = rng.uniform(n, -0.1f, 0.1f);
    s.v = rng.uniform(n, 1e-4f, 1e-2f);
  }
  return s;
}

void check_adam(const AdamCase& c, const std::string& label) {
  Random rng = random_for("adam_step", label);
  const AdamState start = random_adam_state(rng, c);
  const AdamState got = run_adam(c, start);
  cae_ref::Vec param = widen(start.param), m = widen(start.m), v = widen(start.v);
  const cae_adam_params p = c.params();
  cae_ref::adam_step(param, widen(start.grad), m, v,
                     {p.learning_rate, p.beta1, p.beta2, p.epsilon, p.weight_decay, p.step});
  expect_update("adam_step", label, start.param, got.param, param, c.dims);
  expect_close("adam_step", label + " m", got.m, m, c.dims);
  expect_close("adam_step", label + " v", got.v, v, c.dims);
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
