// upsample2x_forward and upsample2x_backward: against the reference (the
// forward is a copy and must be exact; the backward a sum of four), and
// determinism.
#include <doctest/doctest.h>

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

Dims doubled(const Dims& x) { return {x[0], x[1], x[2] * 2, x[3] * 2}; }

cae_ref::ImageDims image(const Dims& x) { return {x[0], x[1], x[2], x[3]}; }

std::vector<float> run_forward(const Dims& dims, const std::vector<float>& x_values) {
  cae::Tensor x = upload_tensor(dims, x_values);
  cae::Tensor y = poisoned_tensor(doubled(dims));
  ctx().upsample2x_forward(x, y);
  return download(y);
}

std::vector<float> run_backward(const Dims& dims, const std::vector<float>& dy_values) {
  cae::Tensor dy = upload_tensor(doubled(dims), dy_values);
  cae::Tensor dx = poisoned_tensor(dims);
  ctx().upsample2x_backward(dy, dx);
  return download(dx);
}

void check_forward(const Dims& dims, const std::string& label) {
  Random rng = random_for("upsample2x_forward", label);
  const std::vector<float> x = rng.uniform(count_of(dims), -1.0f, 1.0f);
  expect_selected("upsample2x_forward", label, run_forward(dims, x),
                  cae_ref::upsample2x_forward(image(dims), widen(x)), doubled(dims));
}

void check_backward(const Dims& dims, const std::string& label) {
  Random rng = random_for("upsample2x_backward", label);
  const std::vector<float> dy = rng.uniform(count_of(doubled(dims)), -1.0f, 1.0f);
  expect_within("upsample2x_backward", label, run_backward(dims, dy),
                cae_ref::upsample2x_backward(image(dims), widen(dy)),
                bounds::upsample_backward(image(dims), widen(dy)), reduction_tolerance(4), dims);
}

}  // namespace

void check_upsample2x_forward() {
  const char* op = "upsample2x_forward";
  if (!require_member(op, CAE_TABLE_HAS(&table(), upsample2x_forward))) return;
  for (const Dims& dims : upsample_input_shapes(suite().quick)) {
    const std::string label = "x" + dims_str(dims);
    SUBCASE(label.c_str()) {
      guarded(op, label, [&] { check_forward(dims, label); });
    }
  }
  for (const ResizeCase& c : model_upsample_cases(suite().models)) {
    const std::string label = "x" + dims_str(c.dims) + " (" + c.layer + ")";
    SUBCASE(label.c_str()) {
      guarded(op, label, [&] { check_forward(c.dims, label); });
    }
  }
  SUBCASE("determinism") {
    const Dims dims = upsample_input_shapes(suite().quick).back();
    Random rng = random_for(op, "determinism");
    const std::vector<float> x = rng.uniform(count_of(dims), -1.0f, 1.0f);
    expect_deterministic(op, "x" + dims_str(dims), [&] {
      return Outputs{{"y", run_forward(dims, x)}};
    });
  }
}

void check_upsample2x_backward() {
  const char* op = "upsample2x_backward";
  if (!require_member(op, CAE_TABLE_HAS(&table(), upsample2x_backward))) return;
  for (const Dims& dims : upsample_input_shapes(suite().quick)) {
    const std::string label = "dx" + dims_str(dims);
    SUBCASE(label.c_str()) {
      guarded(op, label, [&] { check_backward(dims, label); });
    }
  }
  for (const ResizeCase& c : model_upsample_cases(suite().models)) {
    const std::string label = "dx" + dims_str(c.dims) + " (" + c.layer + ")";
    SUBCASE(label.c_str()) {
      guarded(op, label, [&] { check_backward(c.dims, label); });
    }
  }
  SUBCASE("determinism") {
    const Dims dims = upsample_input_shapes(suite().quick).back();
    Random rng = random_for(op, "determinism");
    const std::vector<float> dy = rng.uniform(count_of(doubled(dims)), -1.0f, 1.0f);
    expect_deterministic(op, "dx" + dims_str(dims), [&] {
      return Outputs{{"dx", run_backward(dims, dy)}};
    });
  }
}

}  // namespace conformance
