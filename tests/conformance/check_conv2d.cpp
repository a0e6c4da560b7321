// conv2d_forward and conv2d_backward: against the reference at every shape
// (small odd ones, the autoencoder's layers, batches past 64 and 256 images),
// with and without the fused ReLU and dx, other kernel sizes (optional), and
// determinism. Each element is held to the forward-error bound of its dot
// product (error_bounds.hpp). The backward op is checked against the
// reference's analytic gradients; the reference's own gradients are checked by
// finite differences in float64 (tests/reference/gradcheck.cpp), where
// rounding cannot blur them.
#include <doctest/doctest.h>

#include <algorithm>
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
  return download(y);
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
  if (c.with_dx) g.dx = download(dx);
  g.dw = download(dw);
  g.db = download(db);
  return g;
}

// Images the reference recomputes for a large batch: both sides of 64 and
// of the last image, and a few at random. Other images are checked too, but
// cheaply (see check_forward).
std::vector<int64_t> sampled_images(int64_t n, Random& rng) {
  std::vector<int64_t> images = {0, 63, 64, n - 1, rng.index(n), rng.index(n)};
  images.erase(
      std::remove_if(images.begin(), images.end(), [n](int64_t i) { return i < 0 || i >= n; }),
      images.end());
  std::sort(images.begin(), images.end());
  images.erase(std::unique(images.begin(), images.end()), images.end());
  return images;
}

// The images `images` of an [N, ...] tensor of `per_image` values each.
std::vector<float> slice(const std::vector<float>& v, int64_t per_image,
                         const std::vector<int64_t>& images) {
  std::vector<float> out;
  out.reserve(images.size() * per_image);
  for (int64_t i : images)
    out.insert(out.end(), v.begin() + i * per_image, v.begin() + (i + 1) * per_image);
  return out;
}

void check_forward(const ConvCase& c, const std::string& label) {
  Random rng = random_for("conv2d_forward", label);
  const ConvInputs in = random_conv_inputs(rng, c);
  const std::vector<float> y = run_forward(c, in);
  const int64_t terms = c.dims.c * c.dims.k * c.dims.k;
  if (!c.sampled) {
    const cae_ref::Vec want =
        cae_ref::conv2d_forward(c.dims, widen(in.x), widen(in.w), widen(in.b), c.relu);
    const cae_ref::Vec scale = bounds::conv_forward(c.dims, widen(in.x), widen(in.w), widen(in.b));
    expect_within("conv2d_forward", label, y, want, scale, product_tolerance(terms), c.y());
    return;
  }
  // A large batch at a real layer's shape: the reference for sampled images;
  // every other image is still required to be finite (not left unwritten).
  const std::vector<int64_t> images = sampled_images(c.dims.n, rng);
  cae_ref::ConvDims d = c.dims;
  d.n = static_cast<int64_t>(images.size());
  const int64_t per_x = c.dims.c * c.dims.h * c.dims.w, per_y = c.dims.o * c.dims.h * c.dims.w;
  const cae_ref::Vec x = widen(slice(in.x, per_x, images));
  const cae_ref::Vec want = cae_ref::conv2d_forward(d, x, widen(in.w), widen(in.b), c.relu);
  const cae_ref::Vec scale = bounds::conv_forward(d, x, widen(in.w), widen(in.b));
  std::string which = "images";
  for (int64_t i : images) which += " " + std::to_string(i);
  expect_within("conv2d_forward", label + " " + which, slice(y, per_y, images), want, scale,
                product_tolerance(terms), {d.n, d.o, d.h, d.w});
  const auto bad = std::find_if(y.begin(), y.end(), [](float v) { return !std::isfinite(v); });
  const bool all_finite = bad == y.end();
  record(all_finite, "conv2d_forward", label + " every image written",
         all_finite ? "all finite" : "NaN/Inf (unwritten?)");
  if (!all_finite) {
    explain("first at image " + std::to_string((bad - y.begin()) / per_y) + " of " +
            std::to_string(c.dims.n));
  }
}

void check_backward(const ConvCase& c, const std::string& label) {
  Random rng = random_for("conv2d_backward", label);
  const ConvInputs in = random_conv_inputs(rng, c);
  std::vector<float> dy = rng.uniform(count_of(c.y()), -1.0f, 1.0f);
  cae_ref::ConvDims d = c.dims;
  std::vector<int64_t> images;
  std::vector<float> x_ref = in.x, dy_ref = dy;
  const int64_t per_x = c.dims.c * c.dims.h * c.dims.w, per_y = c.dims.o * c.dims.h * c.dims.w;
  if (c.sampled) {
    // A large batch at a real layer's shape: dy is zero except on sampled
    // images, so dw and db are sums over those alone (cheap to recompute),
    // yet depend on the images past 64 and on the last one.
    images = sampled_images(c.dims.n, rng);
    std::vector<float> sparse(dy.size(), 0.0f);
    for (int64_t i : images)
      std::copy(dy.begin() + i * per_y, dy.begin() + (i + 1) * per_y, sparse.begin() + i * per_y);
    dy = sparse;
    d.n = static_cast<int64_t>(images.size());
    x_ref = slice(in.x, per_x, images);
    dy_ref = slice(dy, per_y, images);
  }
  const ConvGrads got = run_backward(c, in, dy);
  const cae_ref::ConvGradients want =
      cae_ref::conv2d_backward(d, widen(x_ref), widen(in.w), widen(dy_ref), c.with_dx);
  const cae_ref::ConvGradients scale =
      bounds::conv_backward(d, widen(x_ref), widen(in.w), widen(dy_ref), c.with_dx);
  const int64_t k2 = c.dims.k * c.dims.k;
  const int64_t pixels = c.dims.n * c.dims.h * c.dims.w;
  if (c.with_dx) {
    if (c.sampled) {
      // Images with dy = 0 must get dx = 0 exactly; sampled ones the reference.
      std::vector<float> rest;
      for (int64_t i = 0; i < c.dims.n; ++i) {
        if (!std::binary_search(images.begin(), images.end(), i))
          rest.insert(rest.end(), got.dx.begin() + i * per_x, got.dx.begin() + (i + 1) * per_x);
      }
      expect_selected("conv2d_backward", label + " dx of images with dy = 0", rest,
                      cae_ref::Vec(rest.size(), 0.0), {int64_t(rest.size())});
      expect_within("conv2d_backward", label + " dx of sampled images",
                    slice(got.dx, per_x, images), want.dx, scale.dx,
                    product_tolerance(c.dims.o * k2), {d.n, d.c, d.h, d.w});
    } else {
      expect_within("conv2d_backward", label + " dx", got.dx, want.dx, scale.dx,
                    product_tolerance(c.dims.o * k2), c.x());
    }
  }
  expect_within("conv2d_backward", label + " dw", got.dw, want.dw, scale.dw,
                product_tolerance(pixels), c.w());
  expect_within("conv2d_backward", label + " db", got.db, want.db, scale.db,
                product_tolerance(pixels), c.b());
}

// A backend may keep what a forward pass derived from x (im2col columns, a
// BF16 copy) for the backward pass of the same layer. What it keeps must
// follow x: the backward pass right after a forward on the same x, after x
// was rewritten in place by another op (relu_forward), and after an upload
// to x, must each match the reference on x's values at that moment.
void check_backward_follows_x(const ConvCase& c, const std::string& label) {
  Random rng = random_for("conv2d_backward", label + " follows x");
  const ConvInputs in = random_conv_inputs(rng, c);
  const std::vector<float> dy_values = rng.uniform(count_of(c.y()), -1.0f, 1.0f);
  cae::Tensor x = upload_tensor(c.x(), in.x), w = upload_tensor(c.w(), in.w),
              b = upload_tensor(c.b(), in.b), dy = upload_tensor(c.y(), dy_values);
  cae::Tensor y = poisoned_tensor(c.y());
  auto expect_gradients = [&](const std::vector<float>& x_values, const std::string& when) {
    cae::Tensor dx = poisoned_tensor(c.x()), dw = poisoned_tensor(c.w()),
                db = poisoned_tensor(c.b());
    ctx().conv2d_backward(x, w, dy, &dx, dw, db);
    const cae_ref::ConvGradients want =
        cae_ref::conv2d_backward(c.dims, widen(x_values), widen(in.w), widen(dy_values), true);
    const cae_ref::ConvGradients scale =
        bounds::conv_backward(c.dims, widen(x_values), widen(in.w), widen(dy_values), true);
    const int64_t pixels = c.dims.n * c.dims.h * c.dims.w;
    expect_within("conv2d_backward", label + " " + when + " dx", download(dx), want.dx, scale.dx,
                  product_tolerance(c.dims.o * c.dims.k * c.dims.k), c.x());
    expect_within("conv2d_backward", label + " " + when + " dw", download(dw), want.dw, scale.dw,
                  product_tolerance(pixels), c.w());
  };
  ctx().conv2d_forward(x, w, b, y, false);
  expect_gradients(in.x, "after a forward on the same x");
  if (CAE_TABLE_HAS(&table(), relu_forward)) {
    ctx().relu_forward(x, x);  // in place: about half of x becomes 0
    std::vector<float> rectified = in.x;
    for (float& v : rectified) v = std::max(v, 0.0f);
    expect_gradients(rectified, "after relu_forward in place on x");
    ctx().conv2d_forward(x, w, b, y, false);
  }
  const std::vector<float> fresh = rng.uniform(count_of(c.x()), -1.0f, 1.0f);
  upload(x, fresh);
  expect_gradients(fresh, "after an upload to x");
}

// One case of `op`. Kernel sizes other than 3 are optional: for them
// CAE_STATUS_UNSUPPORTED is an accepted answer, a wrong result is not.
void check_case(const char* op, const ConvCase& c, const std::string& label) {
  try {
    if (std::string(op) == "conv2d_forward") {
      check_forward(c, label);
    } else {
      check_backward(c, label);
    }
  } catch (const cae::BackendError& e) {
    if ((c.dims.k == 3 && !c.unsupported_allowed) || e.status() != CAE_STATUS_UNSUPPORTED) throw;
    note(op, label,
         c.unsupported_allowed ? "unsupported (allowed for a model's layer)"
                               : "unsupported (allowed for K != 3)");
  }
}

// The case the determinism checks use: the layer with the longest reductions.
ConvCase determinism_case(bool with_relu) {
  if (suite().quick) return {{1, 128, 8, 8, 128, 3}, with_relu, true, "conv3"};
  return {{2, 256, 16, 16, 128, 3}, with_relu, true, "conv2"};
}

}  // namespace

void check_conv2d_forward() {
  const char* op = "conv2d_forward";
  if (!require_member(op, CAE_TABLE_HAS(&table(), conv2d_forward))) return;
  for (const ConvCase& c : conv_forward_cases(suite().quick)) {
    const std::string label = c.label();
    SUBCASE(label.c_str()) {
      guarded(op, label, [&] { check_case(op, c, label); }, c.work());
    }
  }
  for (int64_t k : {1, 5}) {
    const ConvCase c{{2, 3, 6, 7, 4, k}, true, true, ""};
    const std::string label = c.label();
    SUBCASE(label.c_str()) {
      guarded(op, label, [&] { check_case(op, c, label); }, c.work());
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
      guarded(op, label, [&] { check_case(op, c, label); }, 2 * c.work());
    }
  }
  for (int64_t k : {1, 5}) {
    const ConvCase c{{2, 3, 6, 7, 4, k}, false, true, ""};
    const std::string label = c.label();
    SUBCASE(label.c_str()) {
      guarded(op, label, [&] { check_case(op, c, label); }, 2 * c.work());
    }
  }
  // Wide enough for the tensor-core paths (channels a multiple of 8), small
  // enough for the reference; and a 3-channel input (the first layer's paths).
  for (const ConvCase& c : {ConvCase{{2, 64, 8, 8, 64, 3}, false, true, ""},
                            ConvCase{{2, 3, 8, 8, 16, 3}, false, true, ""}}) {
    const std::string label = c.label();
    SUBCASE((label + " follows x").c_str()) {
      guarded(op, label + " follows x", [&] { check_backward_follows_x(c, label); },
              2 * c.work());
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
}

}  // namespace conformance
