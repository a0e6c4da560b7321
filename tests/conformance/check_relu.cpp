// relu_forward and relu_backward: separate outputs and in place (the ABI lets
// y alias x and dx alias dy), exact zeros at the boundary (every 5th input is
// exactly 0: dx there must be 0, as the header's "y > 0" says), determinism.
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

// Uniform in [-1, 1] with every 5th element exactly 0, the ReLU's boundary.
std::vector<float> values_with_zeros(Random& rng, int64_t count) {
  std::vector<float> v = rng.uniform(count, -1.0f, 1.0f);
  for (size_t i = 0; i < v.size(); i += 5) v[i] = 0.0f;
  return v;
}

std::vector<float> host_relu(std::vector<float> v) {
  for (float& e : v) e = e > 0.0f ? e : 0.0f;
  return v;
}

std::vector<float> run_forward(const Dims& dims, const std::vector<float>& x_values,
                               bool in_place) {
  cae::Tensor x = upload_tensor(dims, x_values);
  if (in_place) {
    ctx().relu_forward(x, x);
    return download(x);
  }
  cae::Tensor y = poisoned_tensor(dims);
  ctx().relu_forward(x, y);
  return download(y);
}

std::vector<float> run_backward(const Dims& dims, const std::vector<float>& y_values,
                                const std::vector<float>& dy_values, bool in_place) {
  cae::Tensor y = upload_tensor(dims, y_values);
  cae::Tensor dy = upload_tensor(dims, dy_values);
  if (in_place) {
    ctx().relu_backward(y, dy, dy);
    return download(dy);
  }
  cae::Tensor dx = poisoned_tensor(dims);
  ctx().relu_backward(y, dy, dx);
  return download(dx);
}

void check_forward(const Dims& dims, bool in_place, const std::string& label) {
  Random rng = random_for("relu_forward", label);
  const std::vector<float> x = values_with_zeros(rng, count_of(dims));
  expect_selected("relu_forward", label, run_forward(dims, x, in_place),
                  cae_ref::relu_forward(widen(x)), dims);
}

void check_backward(const Dims& dims, bool in_place, const std::string& label) {
  Random rng = random_for("relu_backward", label);
  const std::vector<float> y = host_relu(values_with_zeros(rng, count_of(dims)));
  const std::vector<float> dy = rng.uniform(count_of(dims), -1.0f, 1.0f);
  expect_selected("relu_backward", label, run_backward(dims, y, dy, in_place),
                  cae_ref::relu_backward(widen(y), widen(dy)), dims);
}

}  // namespace

void check_relu_forward() {
  const char* op = "relu_forward";
  if (!require_member(op, CAE_TABLE_HAS(&table(), relu_forward))) return;
  for (const Dims& dims : elementwise_shapes(suite().quick)) {
    for (bool in_place : {false, true}) {
      const std::string label = "x" + dims_str(dims) + (in_place ? " in place (y = x)" : "");
      SUBCASE(label.c_str()) {
        guarded(op, label, [&] { check_forward(dims, in_place, label); });
      }
    }
  }
  SUBCASE("determinism") {
    const Dims dims = elementwise_shapes(suite().quick).back();
    Random rng = random_for(op, "determinism");
    const std::vector<float> x = values_with_zeros(rng, count_of(dims));
    expect_deterministic(op, "x" + dims_str(dims), [&] {
      return Outputs{{"y", run_forward(dims, x, false)}};
    });
  }
}

void check_relu_backward() {
  const char* op = "relu_backward";
  if (!require_member(op, CAE_TABLE_HAS(&table(), relu_backward))) return;
  for (const Dims& dims : elementwise_shapes(suite().quick)) {
    for (bool in_place : {false, true}) {
      const std::string label = "y" + dims_str(dims) + (in_place ? " in place (dx = dy)" : "");
      SUBCASE(label.c_str()) {
        guarded(op, label, [&] { check_backward(dims, in_place, label); });
      }
    }
  }
  SUBCASE("determinism") {
    const Dims dims = elementwise_shapes(suite().quick).back();
    Random rng = random_for(op, "determinism");
    const std::vector<float> y = host_relu(values_with_zeros(rng, count_of(dims)));
    const std::vector<float> dy = rng.uniform(count_of(dims), -1.0f, 1.0f);
    expect_deterministic(op, "y" + dims_str(dims), [&] {
      return Outputs{{"dx", run_backward(dims, y, dy, false)}};
    });
  }
}

}  // namespace conformance
