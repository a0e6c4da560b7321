// Small hand-computed examples of the reference ops whose contracts are not
// gradients: the max-pool tie rule, the ReLU boundary, the optimizer formulas
// and the kernel matrix. They pin the reference to the header's wording.
#include <doctest/doctest.h>

#include <cmath>

#include "reference_ops.hpp"

using cae_ref::Vec;

TEST_CASE("conv2d_forward: same padding, bias and fused relu on a hand example") {
  // One 3x3 image, all-ones 3x3 kernel: each output is the sum of its
  // zero-padded neighbourhood, plus the bias.
  const cae_ref::ConvDims d{1, 1, 3, 3, 1, 3};
  const Vec x = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  const Vec w(9, 1.0);
  CHECK(cae_ref::conv2d_forward(d, x, w, {-20.0}, false) == Vec{-8, 1, -4, 7, 25, 13, 4, 19, 8});
  CHECK(cae_ref::conv2d_forward(d, x, w, {-20.0}, true) == Vec{0, 1, 0, 7, 25, 13, 4, 19, 8});
}

TEST_CASE("maxpool2x2: ties go to the first element in row-major window order") {
  const cae_ref::ImageDims d{1, 1, 2, 8};
  // Windows: all zeros | max at (0,1) and (1,0) | max at (1,0) and (1,1) | single max at (1,1).
  const Vec x = {0, 0, 1, 5, 0, 1, 0, 1,  //
                 0, 0, 5, 2, 3, 3, 0, 2};
  CHECK(cae_ref::maxpool2x2_forward(d, x) == Vec{0, 5, 3, 2});
  const Vec dx = cae_ref::maxpool2x2_backward(d, x, {10, 20, 30, 40});
  CHECK(dx == Vec{10, 0, 0, 20, 0, 0, 0, 0,  //
                  0, 0, 0, 0, 30, 0, 0, 40});
}

TEST_CASE("relu: zero output passes no gradient") {
  CHECK(cae_ref::relu_forward({-1, 0, 2}) == Vec{0, 0, 2});
  CHECK(cae_ref::relu_backward({0, 0, 2}, {5, 6, 7}) == Vec{0, 0, 7});
}

TEST_CASE("upsample2x: nearest neighbour and block sums") {
  const cae_ref::ImageDims d{1, 1, 1, 2};
  CHECK(cae_ref::upsample2x_forward(d, {1, 2}) == Vec{1, 1, 2, 2, 1, 1, 2, 2});
  CHECK(cae_ref::upsample2x_backward(d, {1, 2, 3, 4, 5, 6, 7, 8}) == Vec{14, 22});
}

TEST_CASE("mse_loss: mean of squares and 2(p-t)/E") {
  const cae_ref::MseResult r = cae_ref::mse_loss({1, 2, 3, 4}, {1, 0, 3, 0});
  CHECK(r.loss == doctest::Approx(5.0));
  CHECK(r.grad == Vec{0, 1, 0, 2});
}

TEST_CASE("sgd_step: momentum and weight decay") {
  Vec param = {1.0, -2.0}, velocity = {0.5, 0.0};
  cae_ref::sgd_step(param, {0.1, 0.2}, &velocity, 0.1, 0.9, 0.01);
  // g = grad + 0.01 p = {0.11, 0.18}; v = 0.9 v + g = {0.56, 0.18}; p -= 0.1 v.
  CHECK(velocity[0] == doctest::Approx(0.56));
  CHECK(velocity[1] == doctest::Approx(0.18));
  CHECK(param[0] == doctest::Approx(0.944));
  CHECK(param[1] == doctest::Approx(-2.018));

  Vec plain = {1.0};
  cae_ref::sgd_step(plain, {0.5}, nullptr, 0.2, 0.0, 0.0);
  CHECK(plain[0] == doctest::Approx(0.9));
}

TEST_CASE("adam_step: the first step moves each weight by about the learning rate") {
  Vec param = {1.0, -1.0}, m = {0.0, 0.0}, v = {0.0, 0.0};
  const cae_ref::AdamParams p{0.01, 0.9, 0.999, 1e-8, 0.0, 1};
  cae_ref::adam_step(param, {0.3, -4.0}, m, v, p);
  // Bias correction makes m_hat = g and v_hat = g^2 at step 1.
  CHECK(m[0] == doctest::Approx(0.03));
  CHECK(v[1] == doctest::Approx(0.016));
  CHECK(param[0] == doctest::Approx(0.99));
  CHECK(param[1] == doctest::Approx(-0.99));

  // Weight decay enters the gradient; step 2 uses its own corrections.
  Vec q = {2.0}, m2 = {0.1}, v2 = {0.02};
  const cae_ref::AdamParams p2{0.1, 0.5, 0.75, 1e-3, 0.5, 2};
  cae_ref::adam_step(q, {1.0}, m2, v2, p2);
  const double g = 1.0 + 0.5 * 2.0;
  const double m_new = 0.5 * 0.1 + 0.5 * g, v_new = 0.75 * 0.02 + 0.25 * g * g;
  const double expected = 2.0 - 0.1 * (m_new / 0.75) / (std::sqrt(v_new / (1 - 0.5625)) + 1e-3);
  CHECK(m2[0] == doctest::Approx(m_new));
  CHECK(v2[0] == doctest::Approx(v_new));
  CHECK(q[0] == doctest::Approx(expected));
}

TEST_CASE("kernel_matrix: linear and RBF") {
  const Vec x = {1, 2, 0, 1};  // two rows of d = 2
  const Vec y = {3, 1};        // one row
  CHECK(cae_ref::kernel_matrix(x, 2, y, 1, 2, cae_ref::KernelKind::linear, 0.0) == Vec{5, 1});
  const Vec k = cae_ref::kernel_matrix(x, 2, x, 2, 2, cae_ref::KernelKind::rbf, 0.5);
  CHECK(k[0] == 1.0);
  CHECK(k[3] == 1.0);
  CHECK(k[1] == doctest::Approx(std::exp(-0.5 * 2.0)));
  CHECK(k[1] == k[2]);
}
