// The row arithmetic of ABI 1.11's linear_loss (plugins/common/linear_loss_math.hpp),
// which the cpu backend and the CUDA runtime both run, on small cases worked
// by hand: the softmax's loss and residuals, the hinges' (a satisfied margin
// gives nothing), a target that is not a class, a NaN score, and the split of
// a double into the two floats the op returns.
#include "linear_loss_math.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <vector>

namespace {

using cae_plugin::linear_loss_class;
using cae_plugin::linear_loss_residual;
using cae_plugin::linear_loss_row;
using cae_plugin::linear_loss_score;
using cae_plugin::linear_loss_split;
using cae_plugin::LinearLossRow;

std::vector<double> residuals(int32_t kind, const std::vector<float>& s,
                              const std::vector<float>& b, int32_t y, double scale, double* loss) {
  const int64_t k = static_cast<int64_t>(s.size());
  const LinearLossRow row = linear_loss_row(kind, s.data(), b.data(), k, y);
  *loss = row.loss;
  std::vector<double> out;
  for (int64_t c = 0; c < k; ++c) {
    out.push_back(
        linear_loss_residual(kind, row, linear_loss_score(s.data(), b.data(), c), c, scale));
  }
  return out;
}

TEST_CASE("cross-entropy: equal scores give log k, and residuals softmax minus the target") {
  double loss = 0.0;
  const std::vector<double> r = residuals(CAE_LINEAR_LOSS_CROSS_ENTROPY, {0.5f, -0.25f},
                                          {-0.5f, 0.25f}, 0, 0.5, &loss);  // s = [0, 0]
  CHECK(loss == doctest::Approx(std::log(2.0)).epsilon(1e-15));
  CHECK(r[0] == doctest::Approx((0.5 - 1.0) * 0.5).epsilon(1e-15));
  CHECK(r[1] == doctest::Approx(0.5 * 0.5).epsilon(1e-15));
}

TEST_CASE("cross-entropy: large scores are shifted by their maximum, not overflowed") {
  double loss = 0.0;
  // s = [1000, 1000 - ln 3]: softmax [3/4, 1/4].
  const float low = 1000.0f - static_cast<float>(std::log(3.0));
  const std::vector<double> r =
      residuals(CAE_LINEAR_LOSS_CROSS_ENTROPY, {1000.0f, low}, {0.0f, 0.0f}, 1, 1.0, &loss);
  const double gap = 1000.0 - double(low);  // ln 3 as float arithmetic left it
  const double p0 = 1.0 / (1.0 + std::exp(-gap));
  CHECK(std::isfinite(loss));
  CHECK(loss == doctest::Approx(std::log(1.0 + std::exp(-gap)) + gap).epsilon(1e-12));
  CHECK(r[0] == doctest::Approx(p0).epsilon(1e-12));
  CHECK(r[1] == doctest::Approx(1.0 - p0 - 1.0).epsilon(1e-12));
}

TEST_CASE("squared hinge: each class's margin, nothing where the margin is met") {
  double loss = 0.0;
  // Class 0 (the target) at 2 meets its margin; class 1 at -0.5 and class 2
  // at 0.5 miss -1 by 0.5 and 1.5.
  const std::vector<double> r = residuals(CAE_LINEAR_LOSS_SQUARED_HINGE, {2.0f, -0.5f, 0.5f},
                                          {0.0f, 0.0f, 0.0f}, 0, 0.25, &loss);
  CHECK(loss == 0.25 + 2.25);
  CHECK(r[0] == 0.0);
  CHECK(r[1] == 2.0 * 0.5 * 0.25);
  CHECK(r[2] == 2.0 * 1.5 * 0.25);
  // The target's own score below 1: pushed up (a negative residual).
  const std::vector<double> up =
      residuals(CAE_LINEAR_LOSS_SQUARED_HINGE, {0.0f, -2.0f}, {0.0f, 0.0f}, 0, 1.0, &loss);
  CHECK(loss == 1.0);
  CHECK(up[0] == -2.0);
  CHECK(up[1] == 0.0);
}

TEST_CASE("a target that is not a class index makes the row NaN; a NaN score stays NaN") {
  CHECK(linear_loss_class(3.0f, 4) == 3);
  CHECK(linear_loss_class(0.0f, 1) == 0);
  CHECK(linear_loss_class(4.0f, 4) == -1);
  CHECK(linear_loss_class(-1.0f, 4) == -1);
  CHECK(linear_loss_class(2.5f, 4) == -1);
  CHECK(linear_loss_class(std::nanf(""), 4) == -1);
  CHECK(linear_loss_class(INFINITY, 4) == -1);
  for (const int32_t kind : {CAE_LINEAR_LOSS_CROSS_ENTROPY, CAE_LINEAR_LOSS_SQUARED_HINGE}) {
    CAPTURE(kind);
    double loss = 0.0;
    const std::vector<double> r = residuals(kind, {1.0f, 2.0f}, {0.0f, 0.0f}, -1, 1.0, &loss);
    CHECK(std::isnan(loss));
    CHECK(std::isnan(r[0]));
    CHECK(std::isnan(r[1]));
    const std::vector<double> n =
        residuals(kind, {1.0f, std::nanf("")}, {0.0f, 0.0f}, 0, 1.0, &loss);
    CHECK(std::isnan(loss));
    CHECK(std::isnan(n[1]));
  }
}

TEST_CASE("a double as two floats: the nearest float, then the nearest float to the rest") {
  float out[2];
  const double value = 1.0 + std::ldexp(1.0, -30);  // beyond a float's 24 bits
  linear_loss_split(value, out);
  CHECK(out[0] == 1.0f);
  CHECK(out[1] == std::ldexp(1.0f, -30));
  CHECK(double(out[0]) + double(out[1]) == value);
  linear_loss_split(-2.5, out);
  CHECK(out[0] == -2.5f);
  CHECK(out[1] == 0.0f);
}

}  // namespace
