// Host-only tests of the winograd backend (no GPU needed):
//  - the F(4x4,3x3) identities of B^T, G, A^T in double: forward and the
//    weight gradient's adjoint form;
//  - a float32 simulation of the whole method as the GPU runs it (the same
//    tile I/O and transform code, products summed in float32) on the model's
//    real layer shapes and on odd shapes with partial tiles, against a float64
//    direct convolution, with the conformance suite's FP32 bound;
//  - the tuning table's lookup, override parsing and pass sizing.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "plugin_support.hpp"
#include "winograd_tile_io.hpp"
#include "winograd_tuning_table.hpp"

namespace {

using namespace cae_winograd;

// ---- the identities in double -------------------------------------------------

TEST_CASE("F(4x4,3x3) forward identity: A^T[(G g G^T) .* (B^T d B)]A is the valid correlation") {
  std::mt19937 rng(1);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  for (int trial = 0; trial < 200; ++trial) {
    double d[6][6], g[3][3], v[6][6], u[6][6], m[6][6], y[4][4];
    for (auto& row : d)
      for (double& e : row) e = value(rng);
    for (auto& row : g)
      for (double& e : row) e = value(rng);
    input_transform(d, v);
    filter_transform(g, u);
    for (int i = 0; i < 6; ++i)
      for (int j = 0; j < 6; ++j) m[i][j] = u[i][j] * v[i][j];
    output_transform(m, y);
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) {
        double want = 0.0;
        for (int r = 0; r < 3; ++r)
          for (int s = 0; s < 3; ++s) want += d[i + r][j + s] * g[r][s];
        CHECK(std::abs(y[i][j] - want) <= 1e-12);
      }
  }
}

TEST_CASE("F(4x4,3x3) weight-gradient identity: G^T[(A dy A^T) .* (B^T d B)]G = corr(d, dy)") {
  std::mt19937 rng(2);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  for (int trial = 0; trial < 200; ++trial) {
    double d[6][6], dy[4][4], v[6][6], e[6][6], du[6][6], dw[3][3];
    for (auto& row : d)
      for (double& x : row) x = value(rng);
    for (auto& row : dy)
      for (double& x : row) x = value(rng);
    input_transform(d, v);
    output_gradient_transform(dy, e);
    for (int i = 0; i < 6; ++i)
      for (int j = 0; j < 6; ++j) du[i][j] = e[i][j] * v[i][j];
    filter_gradient_transform(du, dw);
    for (int r = 0; r < 3; ++r)
      for (int s = 0; s < 3; ++s) {
        double want = 0.0;
        for (int i = 0; i < 4; ++i)
          for (int j = 0; j < 4; ++j) want += dy[i][j] * d[i + r][j + s];
        CHECK(std::abs(dw[r][s] - want) <= 1e-12);
      }
  }
}

// ---- float32 simulation of the GPU's method vs float64 --------------------------

struct Layer {
  const char* name;
  int64_t n, c, h, w, o;
};

using FloatVec = std::vector<float>;

FloatVec uniform(std::mt19937& rng, int64_t count, float bound) {
  std::uniform_real_distribution<float> value(-bound, bound);
  FloatVec out(static_cast<size_t>(count));
  for (float& e : out) e = value(rng);
  return out;
}

int64_t tiles_of(int64_t extent) { return static_cast<int64_t>(tiles_along(extent)); }

// out[n][q] = sum over p of conv(in[n][p], filter(q, p)) (+ bias, ReLU), by
// Winograd in float32 as the GPU computes it: the kernels' tile I/O and
// transforms, the 36 products summed over p in float32. filter(q, p) are the
// OIHW taps w[o][c] with (q, p) = (o, c) forward, (c, o) flipped (dx).
FloatVec simulate_conv(int64_t n, int64_t h, int64_t w, int64_t in_ch, int64_t out_ch,
                       const FloatVec& in, const FloatVec& weights, bool flipped,
                       const FloatVec* bias, bool relu) {
  const int64_t c_total = flipped ? out_ch : in_ch;  // the weights' C
  std::vector<float> u(static_cast<size_t>(out_ch * in_ch * kPoints));
  for (int64_t q = 0; q < out_ch; ++q)
    for (int64_t p = 0; p < in_ch; ++p) {
      const int64_t o = flipped ? p : q, c = flipped ? q : p;
      float g[3][3], t[6][6];
      load_filter(&weights[static_cast<size_t>((o * c_total + c) * 9)], flipped, g);
      filter_transform(g, t);
      std::copy(&t[0][0], &t[0][0] + kPoints, &u[static_cast<size_t>((q * in_ch + p) * kPoints)]);
    }
  FloatVec out(static_cast<size_t>(n * out_ch * h * w));
  std::vector<float> v(static_cast<size_t>(in_ch * kPoints));
  for (int64_t img = 0; img < n; ++img)
    for (int64_t tr = 0; tr < tiles_of(h); ++tr)
      for (int64_t tc = 0; tc < tiles_of(w); ++tc) {
        for (int64_t p = 0; p < in_ch; ++p) {
          float d[6][6], t[6][6];
          gather_input_tile(&in[static_cast<size_t>((img * in_ch + p) * h * w)], h, w, tr, tc, d);
          input_transform(d, t);
          std::copy(&t[0][0], &t[0][0] + kPoints, &v[static_cast<size_t>(p * kPoints)]);
        }
        for (int64_t q = 0; q < out_ch; ++q) {
          float m[6][6] = {}, y[4][4];
          for (int64_t p = 0; p < in_ch; ++p)
            for (int k = 0; k < kPoints; ++k)
              m[k / 6][k % 6] = std::fma(u[static_cast<size_t>((q * in_ch + p) * kPoints + k)],
                                         v[static_cast<size_t>(p * kPoints + k)], m[k / 6][k % 6]);
          output_transform(m, y);
          scatter_output_tile(y, bias ? (*bias)[static_cast<size_t>(q)] : 0.0f, relu,
                              &out[static_cast<size_t>((img * out_ch + q) * h * w)], h, w, tr, tc);
        }
      }
  return out;
}

// dw by the Winograd-domain product, as the backend computes it.
FloatVec simulate_weight_gradient(const Layer& l, const FloatVec& x, const FloatVec& dy) {
  std::vector<float> du(static_cast<size_t>(l.o * l.c * kPoints), 0.0f);
  std::vector<float> v(static_cast<size_t>(l.c * kPoints)), e(static_cast<size_t>(l.o * kPoints));
  for (int64_t img = 0; img < l.n; ++img)
    for (int64_t tr = 0; tr < tiles_of(l.h); ++tr)
      for (int64_t tc = 0; tc < tiles_of(l.w); ++tc) {
        for (int64_t c = 0; c < l.c; ++c) {
          float d[6][6], t[6][6];
          gather_input_tile(&x[static_cast<size_t>((img * l.c + c) * l.h * l.w)], l.h, l.w, tr, tc,
                            d);
          input_transform(d, t);
          std::copy(&t[0][0], &t[0][0] + kPoints, &v[static_cast<size_t>(c * kPoints)]);
        }
        for (int64_t o = 0; o < l.o; ++o) {
          float g[4][4], t[6][6];
          gather_output_tile(&dy[static_cast<size_t>((img * l.o + o) * l.h * l.w)], l.h, l.w, tr,
                             tc, g);
          output_gradient_transform(g, t);
          std::copy(&t[0][0], &t[0][0] + kPoints, &e[static_cast<size_t>(o * kPoints)]);
        }
        for (int64_t o = 0; o < l.o; ++o)
          for (int64_t c = 0; c < l.c; ++c)
            for (int k = 0; k < kPoints; ++k) {
              float& acc = du[static_cast<size_t>((o * l.c + c) * kPoints + k)];
              acc = std::fma(e[static_cast<size_t>(o * kPoints + k)],
                             v[static_cast<size_t>(c * kPoints + k)], acc);
            }
      }
  FloatVec dw(static_cast<size_t>(l.o * l.c * 9));
  for (int64_t i = 0; i < l.o * l.c; ++i) {
    float t[6][6], g[3][3];
    std::copy(&du[static_cast<size_t>(i * kPoints)], &du[static_cast<size_t>(i * kPoints)] + kPoints,
              &t[0][0]);
    filter_gradient_transform(t, g);
    std::copy(&g[0][0], &g[0][0] + 9, &dw[static_cast<size_t>(i * 9)]);
  }
  return dw;
}

// Float64 direct results and the conformance scales (sums of |terms|).
struct Reference {
  std::vector<double> y, y_scale, dx, dx_scale, dw, dw_scale;
};

Reference direct(const Layer& l, const FloatVec& x, const FloatVec& w, const FloatVec& b,
                 const FloatVec& dy, bool relu) {
  Reference r;
  const size_t images = static_cast<size_t>(l.n * l.o * l.h * l.w);
  r.y.assign(images, 0.0);
  r.y_scale.assign(images, 0.0);
  r.dx.assign(x.size(), 0.0);
  r.dx_scale.assign(x.size(), 0.0);
  r.dw.assign(w.size(), 0.0);
  r.dw_scale.assign(w.size(), 0.0);
  for (int64_t n = 0; n < l.n; ++n)
    for (int64_t o = 0; o < l.o; ++o)
      for (int64_t i = 0; i < l.h; ++i)
        for (int64_t j = 0; j < l.w; ++j) {
          const size_t yi = static_cast<size_t>(((n * l.o + o) * l.h + i) * l.w + j);
          double sum = b[static_cast<size_t>(o)], scale = std::abs(b[static_cast<size_t>(o)]);
          for (int64_t c = 0; c < l.c; ++c)
            for (int r2 = 0; r2 < 3; ++r2)
              for (int s = 0; s < 3; ++s) {
                const int64_t yy = i + r2 - 1, xx = j + s - 1;
                if (yy < 0 || yy >= l.h || xx < 0 || xx >= l.w) continue;
                const size_t xi = static_cast<size_t>(((n * l.c + c) * l.h + yy) * l.w + xx);
                const size_t wi = static_cast<size_t>(((o * l.c + c) * 3 + r2) * 3 + s);
                const double xv = x[xi], wv = w[wi], g = dy[yi];
                sum += xv * wv;
                scale += std::abs(xv * wv);
                r.dx[xi] += g * wv;
                r.dx_scale[xi] += std::abs(g * wv);
                r.dw[wi] += g * xv;
                r.dw_scale[wi] += std::abs(g * xv);
              }
          r.y[yi] = relu ? std::max(sum, 0.0) : sum;
          r.y_scale[yi] = scale;
        }
  return r;
}

// The conformance suite's FP32 bound for a product of `terms` terms
// (tests/conformance/error_bounds.cpp): 1e-5 + 8 u sqrt(terms).
double fp32_product_tolerance(int64_t terms) {
  return 1e-5 + 8.0 * 0x1p-24 * std::sqrt(double(std::max<int64_t>(terms, 1)));
}

// Worst err / (tolerance * scale) over the elements (1 = at the bound).
double worst_ratio(const FloatVec& got, const std::vector<double>& want,
                   const std::vector<double>& scale, double tolerance, double* worst_relative) {
  double worst = 0.0, relative = 0.0;
  for (size_t i = 0; i < got.size(); ++i) {
    const double err = std::abs(double(got[i]) - want[i]);
    if (err == 0.0) continue;
    const double ratio = scale[i] > 0.0 ? err / (tolerance * scale[i]) : INFINITY;
    worst = std::max(worst, ratio);
    relative = std::max(relative, scale[i] > 0.0 ? err / scale[i] : INFINITY);
  }
  *worst_relative = relative;
  return worst;
}

void check_layer(const Layer& l, bool relu) {
  std::mt19937 rng(static_cast<unsigned>(l.c * 131 + l.o * 7 + l.h));
  // The conformance suite's distributions (check_conv2d.cpp).
  const FloatVec x = uniform(rng, l.n * l.c * l.h * l.w, 1.0f);
  const FloatVec w = uniform(rng, l.o * l.c * 9, 1.0f / std::sqrt(float(l.c * 9)));
  const FloatVec b = uniform(rng, l.o, 0.5f);
  const FloatVec dy = uniform(rng, l.n * l.o * l.h * l.w, 1.0f);
  const Reference ref = direct(l, x, w, b, dy, relu);

  const FloatVec y = simulate_conv(l.n, l.h, l.w, l.c, l.o, x, w, false, &b, relu);
  const FloatVec dx = simulate_conv(l.n, l.h, l.w, l.o, l.c, dy, w, true, nullptr, false);
  const FloatVec dw = simulate_weight_gradient(l, x, dy);

  double rel_y, rel_dx, rel_dw;
  const double ry = worst_ratio(y, ref.y, ref.y_scale, fp32_product_tolerance(l.c * 9), &rel_y);
  const double rdx =
      worst_ratio(dx, ref.dx, ref.dx_scale, fp32_product_tolerance(l.o * 9), &rel_dx);
  const double rdw =
      worst_ratio(dw, ref.dw, ref.dw_scale, fp32_product_tolerance(l.n * l.h * l.w), &rel_dw);
  // The README's per-layer table comes from these lines.
  std::printf("%-6s x[%lld,%lld,%lld,%lld] o=%lld  err/scale: y %.2e  dx %.2e  dw %.2e  "
              "(share of the FP32 bound: %.2f %.2f %.2f)\n",
              l.name, (long long)l.n, (long long)l.c, (long long)l.h, (long long)l.w,
              (long long)l.o, rel_y, rel_dx, rel_dw, ry, rdx, rdw);
  INFO(l.name);
  CHECK(ry <= 1.0);
  CHECK(rdx <= 1.0);
  CHECK(rdw <= 1.0);
}

TEST_CASE("float32 Winograd on the model's layers stays within the FP32 conformance bound") {
  // conv1..conv5 at the conformance suite's batch 2.
  const Layer layers[] = {{"conv1", 2, 3, 32, 32, 256},
                          {"conv2", 2, 256, 16, 16, 128},
                          {"conv3", 2, 128, 8, 8, 128},
                          {"conv4", 2, 128, 16, 16, 256},
                          {"conv5", 2, 256, 32, 32, 3}};
  for (const Layer& l : layers) check_layer(l, std::string(l.name) != "conv5");
}

TEST_CASE("partial tiles: odd sizes, a 1x1 image and sizes that are not multiples of 4") {
  const Layer layers[] = {{"odd1", 1, 1, 7, 5, 4},
                          {"odd2", 3, 5, 9, 12, 7},
                          {"1x1", 3, 2, 1, 1, 2},
                          {"odd3", 1, 17, 5, 19, 3}};
  for (const Layer& l : layers) {
    check_layer(l, false);
    check_layer(l, true);
  }
}

// ---- tuning table -------------------------------------------------------------

cae_status status_of(const std::string& spec) {
  try {
    apply_override(LaunchParams{}, spec);
  } catch (const cae_plugin::Error& e) {
    return e.status();
  }
  return CAE_STATUS_OK;
}

TEST_CASE("tuning table: measured shapes, default, override, pass sizing") {
  const LaunchParams conv3 = lookup_launch_params({128, 128, 8, 8});
  CHECK(conv3.transform_threads == 128);
  const LaunchParams unknown = lookup_launch_params({7, 9, 11, 13});
  CHECK(unknown.transform_threads == LaunchParams{}.transform_threads);
  CHECK(unknown.images_per_chunk == LaunchParams{}.images_per_chunk);

  const LaunchParams both = apply_override(conv3, "threads=512,chunk=16");
  CHECK(both.transform_threads == 512);
  CHECK(both.images_per_chunk == 16);
  const LaunchParams only_chunk = apply_override(conv3, "chunk=0");
  CHECK(only_chunk.transform_threads == 128);
  CHECK(only_chunk.images_per_chunk == 0);
  CHECK(status_of("threads=100") == CAE_STATUS_INVALID_ARGUMENT);  // not whole warps
  CHECK(status_of("threads=2048") == CAE_STATUS_INVALID_ARGUMENT);
  CHECK(status_of("chunk=-1") == CAE_STATUS_INVALID_ARGUMENT);
  CHECK(status_of("chunk=4x") == CAE_STATUS_INVALID_ARGUMENT);
  CHECK(status_of("tiles=4") == CAE_STATUS_INVALID_ARGUMENT);

  LaunchParams whole;  // chunk 0: the whole batch, within the budget
  CHECK(images_per_pass(whole, 256, 100, 1 << 20) == 256);
  CHECK(images_per_pass(whole, 256, 100, 1000) == 10);
  CHECK(images_per_pass(whole, 256, 100, 10) == 1);  // never below one image
  LaunchParams chunked;
  chunked.images_per_chunk = 64;
  CHECK(images_per_pass(chunked, 257, 100, 1 << 20) == 64);
  CHECK(images_per_pass(chunked, 5, 100, 1 << 20) == 5);
}

}  // namespace
