// Host-only tests of the winograd backend (no GPU needed):
//  - the F(4x4,3x3) identities of B^T, G, A^T in double: forward and the
//    weight gradient's adjoint form;
//  - the backend's own forward and backward steps (winograd_conv_passes.hpp:
//    the same items, layouts, GEMM calls and pass splitting the GPU runs) on
//    a host executor that emulates cuBLAS in float32, on the model's real
//    layer shapes and on odd shapes with partial tiles and several passes,
//    against a float64 direct convolution, with the conformance suite's FP32
//    bound;
//  - the tuning table's lookup, override parsing and pass sizing.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "plugin_support.hpp"
#include "winograd_conv_passes.hpp"
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

// The executor of winograd_conv_passes.hpp on the host: items run in a loop,
// GEMMs with cuBLAS's column-major semantics (op, ld, batch strides; beta 0
// ignores C), summed in float32 with FMA like an SGEMM.
struct HostExecutor {
  template <class Item>
  void run(const Item& item, int /*threads*/) {
    for (int64_t i = 0; i < item.count(); ++i) item(i);
  }

  void gemm(const GemmCall& g) {
    // cuBLAS's own argument rules (CUBLAS_STATUS_INVALID_VALUE otherwise).
    REQUIRE(g.lda >= std::max<int64_t>(1, g.trans_a ? g.k : g.m));
    REQUIRE(g.ldb >= std::max<int64_t>(1, g.trans_b ? g.n : g.k));
    REQUIRE(g.ldc >= std::max<int64_t>(1, g.m));
    for (int64_t batch = 0; batch < g.batch; ++batch) {
      const float* a = g.a + batch * g.stride_a;
      const float* b = g.b + batch * g.stride_b;
      float* c = g.c + batch * g.stride_c;
      for (int64_t j = 0; j < g.n; ++j)
        for (int64_t i = 0; i < g.m; ++i) {
          float sum = 0.0f;
          for (int64_t l = 0; l < g.k; ++l) {
            const float av = g.trans_a ? a[l + i * g.lda] : a[i + l * g.lda];
            const float bv = g.trans_b ? b[j + l * g.ldb] : b[l + j * g.ldb];
            sum = std::fma(av, bv, sum);
          }
          float& out = c[i + j * g.ldc];
          out = g.beta == 0.0f ? sum : sum + g.beta * out;
        }
    }
  }
};

struct Results {
  FloatVec y, dx, dw;
};

// The backend's forward and backward steps, as the GPU sequences them, on the
// host. Workspace and outputs start as NaN: a step that reads what no step
// wrote, or an output element left unwritten, shows up as a NaN.
Results run_method(const Layer& l, const FloatVec& x, const FloatVec& w, const FloatVec& b,
                   const FloatVec& dy, bool relu, int64_t images_per_chunk) {
  const cae_plugin::ConvDims d{l.n, l.c, l.h, l.w, l.o, 3};
  LaunchParams params;
  params.images_per_chunk = images_per_chunk;
  const PassPlan plan = plan_passes(d, params);
  const float nan = std::nanf("");
  HostExecutor exec;
  FloatVec u(static_cast<size_t>(plan.filter_floats), nan), u_flipped = u;
  transform_filter(exec, d, 256, w.data(), u.data(), false);
  transform_filter(exec, d, 256, w.data(), u_flipped.data(), true);
  Results r;
  r.y.assign(dy.size(), nan);
  r.dx.assign(x.size(), nan);
  r.dw.assign(w.size(), nan);
  FloatVec workspace(static_cast<size_t>(plan.forward_workspace()), nan);
  forward_passes(exec, d, plan, 256, x.data(), u.data(), b.data(), r.y.data(), relu,
                 workspace.data());
  workspace.assign(static_cast<size_t>(plan.backward_workspace()), nan);
  backward_passes(exec, d, plan, 256, x.data(), u_flipped.data(), dy.data(), r.dx.data(),
                  r.dw.data(), workspace.data());
  return r;
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
    if (!std::isfinite(err)) {
      *worst_relative = INFINITY;
      return INFINITY;
    }
    if (err == 0.0) continue;
    const double ratio = scale[i] > 0.0 ? err / (tolerance * scale[i]) : INFINITY;
    worst = std::max(worst, ratio);
    relative = std::max(relative, scale[i] > 0.0 ? err / scale[i] : INFINITY);
  }
  *worst_relative = relative;
  return worst;
}

void check_layer(const Layer& l, bool relu, int64_t images_per_chunk = 0) {
  std::mt19937 rng(static_cast<unsigned>(l.c * 131 + l.o * 7 + l.h));
  // The conformance suite's distributions (check_conv2d.cpp).
  const FloatVec x = uniform(rng, l.n * l.c * l.h * l.w, 1.0f);
  const FloatVec w = uniform(rng, l.o * l.c * 9, 1.0f / std::sqrt(float(l.c * 9)));
  const FloatVec b = uniform(rng, l.o, 0.5f);
  const FloatVec dy = uniform(rng, l.n * l.o * l.h * l.w, 1.0f);
  const Reference ref = direct(l, x, w, b, dy, relu);

  const Results got = run_method(l, x, w, b, dy, relu, images_per_chunk);
  const FloatVec &y = got.y, &dx = got.dx, &dw = got.dw;

  double rel_y, rel_dx, rel_dw;
  const double ry = worst_ratio(y, ref.y, ref.y_scale, fp32_product_tolerance(l.c * 9), &rel_y);
  const double rdx =
      worst_ratio(dx, ref.dx, ref.dx_scale, fp32_product_tolerance(l.o * 9), &rel_dx);
  const double rdw =
      worst_ratio(dw, ref.dw, ref.dw_scale, fp32_product_tolerance(l.n * l.h * l.w), &rel_dw);
  // The README's per-layer table comes from these lines.
  std::printf(
      "%-6s chunk %lld x[%lld,%lld,%lld,%lld] o=%lld  err/scale: y %.2e  dx %.2e  dw %.2e  "
      "(share of the FP32 bound: %.2f %.2f %.2f)\n",
      l.name, (long long)images_per_chunk, (long long)l.n, (long long)l.c, (long long)l.h,
      (long long)l.w, (long long)l.o, rel_y, rel_dx, rel_dw, ry, rdx, rdw);
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

TEST_CASE("partial tiles and passes: odd sizes, a 1x1 image, batches split into chunks") {
  const Layer layers[] = {{"odd1", 1, 1, 7, 5, 4},
                          {"odd2", 3, 5, 9, 12, 7},
                          {"1x1", 3, 2, 1, 1, 2},
                          {"odd3", 1, 17, 5, 19, 3},
                          {"batch", 5, 4, 6, 5, 3}};
  for (const Layer& l : layers) {
    check_layer(l, false);
    check_layer(l, true);
    // Several passes, the last one short (5 images in chunks of 2), and one
    // image per pass: dw accumulates over passes (GEMM beta 1).
    check_layer(l, true, 2);
    check_layer(l, false, 1);
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
