// Finite-difference checks of every backward op of the reference against the
// reference forward, element by element, with central differences in float64.
//
// Each check uses the scalar L(x) = <r, f(x)> for a fixed random r, so the
// backward op under test receives dy = r and must return dL/dx.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>
#include <sstream>

#include "reference_ops.hpp"

namespace {

using cae_ref::Vec;

Vec random_vec(std::mt19937_64& rng, int64_t count, double lo = -1.0, double hi = 1.0) {
  std::uniform_real_distribution<double> dist(lo, hi);
  Vec v(count);
  for (double& e : v) e = dist(rng);
  return v;
}

double dot(const Vec& a, const Vec& b) {
  REQUIRE(a.size() == b.size());
  double s = 0.0;
  for (size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

// Compares every element of `analytic` with the central difference of `loss`
// at `point` along that coordinate.
void check_gradient(const char* what, const std::function<double(const Vec&)>& loss,
                    const Vec& point, const Vec& analytic, double step = 1e-6) {
  INFO(what);
  REQUIRE(analytic.size() == point.size());
  double worst = 0.0;
  for (size_t i = 0; i < point.size(); ++i) {
    Vec plus = point, minus = point;
    plus[i] += step;
    minus[i] -= step;
    const double numeric = (loss(plus) - loss(minus)) / (2.0 * step);
    const double err = std::abs(numeric - analytic[i]) / std::max(1.0, std::abs(analytic[i]));
    worst = std::max(worst, err);
  }
  std::ostringstream summary;
  summary << what << ": worst error " << std::scientific << worst;
  MESSAGE(summary.str());
  CHECK(worst < 1e-7);
}

// Values with gaps of at least 0.1 inside every 2x2 window, so that moving one
// element by the finite-difference step never changes which one is the max.
Vec distinct_windows(std::mt19937_64& rng, const cae_ref::ImageDims& d) {
  Vec x(d.count());
  std::uniform_real_distribution<double> base(-1.0, 1.0);
  for (int64_t plane = 0; plane < d.n * d.c; ++plane) {
    for (int64_t i = 0; i < d.h; i += 2) {
      for (int64_t j = 0; j < d.w; j += 2) {
        double offsets[4] = {0.0, 0.1, 0.2, 0.3};
        std::shuffle(offsets, offsets + 4, rng);
        const double b = base(rng);
        const int64_t tl = (plane * d.h + i) * d.w + j;
        x[tl] = b + offsets[0];
        x[tl + 1] = b + offsets[1];
        x[tl + d.w] = b + offsets[2];
        x[tl + d.w + 1] = b + offsets[3];
      }
    }
  }
  return x;
}

}  // namespace

TEST_CASE("conv2d_backward matches finite differences of conv2d_forward") {
  const cae_ref::ConvDims shapes[] = {
      {2, 3, 5, 4, 2, 3}, {1, 1, 7, 5, 4, 3}, {3, 2, 4, 6, 3, 1}, {1, 2, 6, 7, 2, 5}};
  std::mt19937_64 rng(1);
  for (const cae_ref::ConvDims& d : shapes) {
    CAPTURE(d.n);
    CAPTURE(d.c);
    CAPTURE(d.h);
    CAPTURE(d.w);
    CAPTURE(d.o);
    CAPTURE(d.k);
    const Vec x = random_vec(rng, d.input().count());
    const Vec w = random_vec(rng, d.weight_count());
    const Vec b = random_vec(rng, d.o);
    const Vec r = random_vec(rng, d.output().count());
    const cae_ref::ConvGradients g = cae_ref::conv2d_backward(d, x, w, r, true);

    check_gradient(
        "dx", [&](const Vec& p) { return dot(r, conv2d_forward(d, p, w, b, false)); }, x, g.dx);
    check_gradient(
        "dw", [&](const Vec& p) { return dot(r, conv2d_forward(d, x, p, b, false)); }, w, g.dw);
    check_gradient(
        "db", [&](const Vec& p) { return dot(r, conv2d_forward(d, x, w, p, false)); }, b, g.db);

    // Without dx the other gradients are unchanged.
    const cae_ref::ConvGradients no_dx = cae_ref::conv2d_backward(d, x, w, r, false);
    CHECK(no_dx.dx.empty());
    CHECK(no_dx.dw == g.dw);
    CHECK(no_dx.db == g.db);
  }
}

TEST_CASE("relu_backward matches finite differences of relu_forward") {
  std::mt19937_64 rng(2);
  Vec x = random_vec(rng, 60);
  // Keep every element at least 0.1 away from the kink at 0.
  for (double& e : x) e += e >= 0.0 ? 0.1 : -0.1;
  const Vec r = random_vec(rng, x.size());
  const Vec dx = cae_ref::relu_backward(cae_ref::relu_forward(x), r);
  check_gradient(
      "dx", [&](const Vec& p) { return dot(r, cae_ref::relu_forward(p)); }, x, dx);
}

TEST_CASE("maxpool2x2_backward matches finite differences of maxpool2x2_forward") {
  const cae_ref::ImageDims shapes[] = {{2, 3, 4, 6}, {1, 1, 8, 2}, {3, 2, 6, 10}};
  std::mt19937_64 rng(3);
  for (const cae_ref::ImageDims& d : shapes) {
    const Vec x = distinct_windows(rng, d);
    const Vec r = random_vec(rng, d.count() / 4);
    const Vec dx = cae_ref::maxpool2x2_backward(d, x, r);
    check_gradient(
        "dx", [&](const Vec& p) { return dot(r, cae_ref::maxpool2x2_forward(d, p)); }, x, dx);
  }
}

TEST_CASE("upsample2x_backward matches finite differences of upsample2x_forward") {
  const cae_ref::ImageDims shapes[] = {{2, 3, 4, 5}, {1, 1, 1, 1}, {3, 2, 3, 7}};
  std::mt19937_64 rng(4);
  for (const cae_ref::ImageDims& d : shapes) {
    const Vec x = random_vec(rng, d.count());
    const Vec r = random_vec(rng, d.count() * 4);
    const Vec dx = cae_ref::upsample2x_backward(d, r);
    check_gradient(
        "dx", [&](const Vec& p) { return dot(r, cae_ref::upsample2x_forward(d, p)); }, x, dx);
  }
}

TEST_CASE("mse_loss gradient matches finite differences of its value") {
  std::mt19937_64 rng(5);
  for (int64_t count : {1, 7, 105}) {
    const Vec pred = random_vec(rng, count);
    const Vec target = random_vec(rng, count);
    const Vec grad = cae_ref::mse_loss(pred, target).grad;
    check_gradient(
        "dpred", [&](const Vec& p) { return cae_ref::mse_loss(p, target).loss; }, pred, grad);
  }
}
