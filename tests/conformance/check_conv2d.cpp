// conv2d_forward and conv2d_backward: against the reference at every shape,
// with and without the fused ReLU and dx, other kernel sizes (optional),
// determinism, and the backward op against finite differences of the forward.
#include <doctest/doctest.h>

#include <cmath>

#include "checks.hpp"
#include "compare.hpp"
#include "determinism.hpp"
#include "random_data.hpp"
#include "report.hpp"
#include "shapes.hpp"
#include "suite.hpp"

namespace conformance {
namespace {

// Inputs of one convolution. Weights are scaled by 1/sqrt(fan-in) so that
// outputs stay near 1 at every channel count.
struct ConvInputs {
  std::vector<float> x, w, b;
};

ConvInputs random_conv_inputs(Random& rng, const ConvCase& c) {
  const float scale = 1.0f / std::sqrt(float(c.dims.c * c.dims.k * c.dims.k));
  return {rng.uniform(count_of(c.x()), -1.0f, 1.0f), rng.uniform(count_of(c.w()), -scale, scale),
          rng.uniform(c.dims.o, -0.5f, 0.5f)};
}

std::vector<float> run_forward(const ConvCase& c, const ConvInputs& in) {
  cae::Tensor x = upload_tensor(c.x(), in.x), w = upload_tensor(c.w(), in.w),
              b = upload_tensor(c.b(), in.b);
  cae::Tensor y = poisoned_tensor(c.y());
  ctx().conv2d_forward(x, w, b, y, c.relu);
  return y.download();
}

struct ConvGrads {
  std::vector<float> dx, dw, db;
};

ConvGrads run_backward(const ConvCase& c, const ConvInputs& in,
                       const std::vector<float>& dy_values) {
  cae::Tensor x = upload_tensor(c.x(), in.x), w = upload_tensor(c.w(), in.w);
  cae::Tensor dy = upload_tensor(c.y(), dy_values);
  cae::Tensor dw = poisoned_tensor(c.w()), db = poisoned_tensor(c.b());
  cae::Tensor dx;
  if (c.with_dx) dx = poisoned_tensor(c.x());
  ctx().conv2d_backward(x, w, dy, c.with_dx ? &dx : nullptr, dw, db);
  ConvGrads g;
  if (c.with_dx) g.dx = dx.download();
  g.dw = dw.download();
  g.db = db.download();
  return g;
}

void check_forward(const ConvCase& c, const std::string& label) {
  Random rng = random_for("conv2d_forward", label);
  const ConvInputs in = random_conv_inputs(rng, c);
  const std::vector<float> y = run_forward(c, in);
  const cae_ref::Vec want =
      cae_ref::conv2d_forward(c.dims, widen(in.x), widen(in.w), widen(in.b), c.relu);
  expect_close("conv2d_forward", label, y, want, c.y());
}

void check_backward(const ConvCase& c, const std::string& label) {
  Random rng = random_for("conv2d_backward", label);
  const ConvInputs in = random_conv_inputs(rng, c);
  const std::vector<float> dy = rng.uniform(count_of(c.y()), -1.0f, 1.0f);
  const ConvGrads got = run_backward(c, in, dy);
  const cae_ref::ConvGradients want =
      cae_ref::conv2d_backward(c.dims, widen(in.x), widen(in.w), widen(dy), c.with_dx);
  if (c.with_dx) expect_close("conv2d_backward", label + " dx", got.dx, want.dx, c.x());
  expect_close("conv2d_backward", label + " dw", got.dw, want.dw, c.w());
  expect_close("conv2d_backward", label + " db", got.db, want.db, c.b());
}

// Kernel sizes other than 3 are optional: CAE_STATUS_UNSUPPORTED is an
// accepted answer, a wrong result is not.
void check_optional_kernel(const char* op, const ConvCase& c, const std::string& label) {
  try {
    if (std::string(op) == "conv2d_forward") {
      check_forward(c, label);
    } else {
      check_backward(c, label);
    }
  } catch (const cae::BackendError& e) {
    if (e.status() != CAE_STATUS_UNSUPPORTED) throw;
    note(op, label, "unsupported (allowed for K != 3)");
  }
}

// The case the determinism checks use: the layer with the longest reductions.
ConvCase determinism_case(bool with_relu) {
  if (suite().quick) return {{1, 128, 8, 8, 128, 3}, with_relu, true, "conv3"};
  return {{2, 256, 16, 16, 128, 3}, with_relu, true, "conv2"};
}

// L(x, w, b) = <r, conv(x, w, b)> evaluated with the backend's own forward.
double directional_loss(const ConvCase& c, const ConvInputs& in, const std::vector<float>& r) {
  return dot(r, run_forward(c, in));
}

// Central difference of L along `direction` applied to one of x, w or b.
double central_difference(const ConvCase& c, const ConvInputs& in, const std::vector<float>& r,
                          std::vector<float> ConvInputs::*member,
                          const std::vector<float>& direction, float step) {
  ConvInputs plus = in, minus = in;
  for (size_t i = 0; i < direction.size(); ++i) {
    (plus.*member)[i] += step * direction[i];
    (minus.*member)[i] -= step * direction[i];
  }
  return (directional_loss(c, plus, r) - directional_loss(c, minus, r)) / (2.0 * step);
}

void check_finite_differences(const ConvCase& c, const std::string& label) {
  Random rng = random_for("conv2d_backward", "fd " + label);
  const ConvInputs in = random_conv_inputs(rng, c);
  const std::vector<float> r = rng.uniform(count_of(c.y()), -1.0f, 1.0f);
  const ConvGrads g = run_backward(c, in, r);
  // The convolution is linear in each argument, so a large step has no
  // truncation error and keeps rounding (even of reduced precisions) small.
  const float step = 0.5f;
  const struct {
    const char* name;
    std::vector<float> ConvInputs::*member;
    const std::vector<float>& gradient;
  } parts[] = {
      {"dx", &ConvInputs::x, g.dx}, {"dw", &ConvInputs::w, g.dw}, {"db", &ConvInputs::b, g.db}};
  for (const auto& part : parts) {
    const std::vector<float> u = rng.uniform((in.*part.member).size(), -1.0f, 1.0f);
    const double numeric = central_difference(c, in, r, part.member, u, step);
    expect_gradient("conv2d_backward", "finite differences " + label + " " + part.name, numeric,
                    dot(part.gradient, u));
  }
}

}  // namespace

void check_conv2d_forward() {
  const char* op = "conv2d_forward";
  if (!require_member(op, CAE_TABLE_HAS(&table(), conv2d_forward))) return;
  for (const ConvCase& c : conv_forward_cases(suite().quick)) {
    const std::string label = c.label();
    SUBCASE(label.c_str()) {
      guarded(op, label, [&] { check_forward(c, label); });
    }
  }
  for (int64_t k : {1, 5}) {
    const ConvCase c{{2, 3, 6, 7, 4, k}, true, true, ""};
    const std::string label = c.label();
    SUBCASE(label.c_str()) {
      guarded(op, label, [&] { check_optional_kernel(op, c, label); });
    }
  }
  SUBCASE("determinism") {
    const ConvCase c = determinism_case(true);
    Random rng = random_for(op, "determinism");
    const ConvInputs in = random_conv_inputs(rng, c);
    expect_deterministic(op, c.label(), [&] { return Outputs{{"y", run_forward(c, in)}}; });
  }
}

void check_conv2d_backward() {
  const char* op = "conv2d_backward";
  if (!require_member(op, CAE_TABLE_HAS(&table(), conv2d_backward))) return;
  for (const ConvCase& c : conv_backward_cases(suite().quick)) {
    const std::string label = c.label();
    SUBCASE(label.c_str()) {
      guarded(op, label, [&] { check_backward(c, label); });
    }
  }
  for (int64_t k : {1, 5}) {
    const ConvCase c{{2, 3, 6, 7, 4, k}, false, true, ""};
    const std::string label = c.label();
    SUBCASE(label.c_str()) {
      guarded(op, label, [&] { check_optional_kernel(op, c, label); });
    }
  }
  SUBCASE("determinism") {
    const ConvCase c = determinism_case(false);
    Random rng = random_for(op, "determinism");
    const ConvInputs in = random_conv_inputs(rng, c);
    const std::vector<float> dy = rng.uniform(count_of(c.y()), -1.0f, 1.0f);
    expect_deterministic(op, c.label(), [&] {
      const ConvGrads g = run_backward(c, in, dy);
      return Outputs{{"dx", g.dx}, {"dw", g.dw}, {"db", g.db}};
    });
  }
  if (!CAE_TABLE_HAS(&table(), conv2d_forward)) return;  // reported by its own test case
  for (const cae_ref::ConvDims& d : {cae_ref::ConvDims{2, 3, 5, 4, 2, 3}, {1, 4, 6, 7, 3, 3}}) {
    const ConvCase c{d, false, true, ""};
    const std::string label = c.label();
    SUBCASE(("finite differences " + label).c_str()) {
      guarded(op, "finite differences " + label, [&] { check_finite_differences(c, label); });
    }
  }
}

}  // namespace conformance
