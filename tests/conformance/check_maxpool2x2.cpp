// maxpool2x2_forward and maxpool2x2_backward: random inputs, inputs full of
// ties (the gradient must go to the FIRST maximum in row-major window order),
// determinism. Both are selections: every element must match exactly.
#include <doctest/doctest.h>

#include <algorithm>

#include "checks.hpp"
#include "compare.hpp"
#include "determinism.hpp"
#include "random_data.hpp"
#include "report.hpp"
#include "shapes.hpp"
#include "suite.hpp"

namespace conformance {
namespace {

Dims pooled(const Dims& x) { return {x[0], x[1], x[2] / 2, x[3] / 2}; }

cae_ref::ImageDims image(const Dims& x) { return {x[0], x[1], x[2], x[3]}; }

// Calls `fill(window_offsets, rng)` for every 2x2 window of an [N,C,H,W] input.
template <class Fill>
std::vector<float> per_window(const Dims& x, Random& rng, Fill fill) {
  std::vector<float> v(count_of(x));
  const int64_t h = x[2], w = x[3];
  for (int64_t plane = 0; plane < x[0] * x[1]; ++plane) {
    for (int64_t i = 0; i < h; i += 2) {
      for (int64_t j = 0; j < w; j += 2) {
        const int64_t tl = (plane * h + i) * w + j;
        float* cell[4] = {&v[tl], &v[tl + 1], &v[tl + w], &v[tl + w + 1]};
        fill(cell, rng);
      }
    }
  }
  return v;
}

// Windows with ties, as after a ReLU: all four zero, or 2 or 3 equal maxima at
// random places, or all four equal to some other value, or no tie.
std::vector<float> values_with_ties(const Dims& x, Random& rng) {
  return per_window(x, rng, [](float* cell[4], Random& r) {
    const int64_t pattern = r.index(5);
    const float top = pattern == 0 ? 0.0f : r.uniform(-1.0f, 1.0f);
    for (int e = 0; e < 4; ++e) *cell[e] = top - r.uniform(0.01f, 1.0f);
    if (pattern <= 1) {
      for (int e = 0; e < 4; ++e) *cell[e] = top;  // four equal maxima
    } else if (pattern <= 3) {
      const int ties = pattern == 2 ? 2 : 3;
      int order[4] = {0, 1, 2, 3};
      std::shuffle(order, order + 4, r.engine());
      for (int e = 0; e < ties; ++e) *cell[order[e]] = top;
    }  // pattern 4: distinct values
  });
}

std::vector<float> run_forward(const Dims& dims, const std::vector<float>& x_values) {
  cae::Tensor x = upload_tensor(dims, x_values);
  cae::Tensor y = poisoned_tensor(pooled(dims));
  ctx().maxpool2x2_forward(x, y);
  return download(y);
}

std::vector<float> run_backward(const Dims& dims, const std::vector<float>& x_values,
                                const std::vector<float>& dy_values) {
  cae::Tensor x = upload_tensor(dims, x_values);
  cae::Tensor dy = upload_tensor(pooled(dims), dy_values);
  cae::Tensor dx = poisoned_tensor(dims);
  ctx().maxpool2x2_backward(x, dy, dx);
  return download(dx);
}

std::vector<float> input_for(const Dims& dims, bool ties, Random& rng) {
  return ties ? values_with_ties(dims, rng) : rng.uniform(count_of(dims), -1.0f, 1.0f);
}

void check_forward(const Dims& dims, bool ties, const std::string& label) {
  Random rng = random_for("maxpool2x2_forward", label);
  const std::vector<float> x = input_for(dims, ties, rng);
  expect_selected("maxpool2x2_forward", label, run_forward(dims, x),
                  cae_ref::maxpool2x2_forward(image(dims), widen(x)), pooled(dims));
}

void check_backward(const Dims& dims, bool ties, const std::string& label) {
  Random rng = random_for("maxpool2x2_backward", label);
  const std::vector<float> x = input_for(dims, ties, rng);
  const std::vector<float> dy = rng.uniform(count_of(pooled(dims)), -1.0f, 1.0f);
  expect_selected("maxpool2x2_backward", label, run_backward(dims, x, dy),
                  cae_ref::maxpool2x2_backward(image(dims), widen(x), widen(dy)), dims);
}

template <class Check>
void for_each_case(const char* op, Check check) {
  for (const Dims& dims : pool_input_shapes(suite().quick)) {
    for (bool ties : {false, true}) {
      const std::string label = "x" + dims_str(dims) + (ties ? " with ties" : "");
      SUBCASE(label.c_str()) {
        guarded(op, label, [&] { check(dims, ties, label); });
      }
    }
  }
  for (const ResizeCase& c : model_pool_cases(suite().models)) {
    const std::string label = "x" + dims_str(c.dims) + " (" + c.layer + ")";
    SUBCASE(label.c_str()) {
      guarded(op, label, [&] { check(c.dims, false, label); });
    }
  }
}

}  // namespace

void check_maxpool2x2_forward() {
  const char* op = "maxpool2x2_forward";
  if (!require_member(op, CAE_TABLE_HAS(&table(), maxpool2x2_forward))) return;
  for_each_case(op, check_forward);
  SUBCASE("determinism") {
    const Dims dims = pool_input_shapes(suite().quick).back();
    Random rng = random_for(op, "determinism");
    const std::vector<float> x = values_with_ties(dims, rng);
    expect_deterministic(op, "x" + dims_str(dims), [&] {
      return Outputs{{"y", run_forward(dims, x)}};
    });
  }
}

void check_maxpool2x2_backward() {
  const char* op = "maxpool2x2_backward";
  if (!require_member(op, CAE_TABLE_HAS(&table(), maxpool2x2_backward))) return;
  for_each_case(op, check_backward);
  SUBCASE("determinism") {
    const Dims dims = pool_input_shapes(suite().quick).back();
    Random rng = random_for(op, "determinism");
    const std::vector<float> x = values_with_ties(dims, rng);
    const std::vector<float> dy = rng.uniform(count_of(pooled(dims)), -1.0f, 1.0f);
    expect_deterministic(op, "x" + dims_str(dims), [&] {
      return Outputs{{"dx", run_backward(dims, x, dy)}};
    });
  }
}

}  // namespace conformance
