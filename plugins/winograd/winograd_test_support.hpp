// Shared by the winograd unit tests (winograd_test.cpp: the Winograd steps;
// winograd_direct_test.cpp: the direct path): a host executor that runs the
// backend's step sequences with cuBLAS's GEMM semantics in float32, a float64
// direct convolution with the conformance suite's scales, and the suite's
// FP32 bound. Host code only.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "winograd_conv_passes.hpp"

namespace winograd_test {

using cae_winograd::GemmCall;

struct Layer {
  const char* name;
  int64_t n, c, h, w, o;
};

using FloatVec = std::vector<float>;

inline FloatVec uniform(std::mt19937& rng, int64_t count, float bound) {
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
  FloatVec db;  // empty where the method leaves db to a GPU-only kernel
};

// Float64 direct results and the conformance scales (sums of |terms|).
struct Reference {
  std::vector<double> y, y_scale, dx, dx_scale, dw, dw_scale, db, db_scale;
};

inline Reference direct(const Layer& l, const FloatVec& x, const FloatVec& w, const FloatVec& b,
                        const FloatVec& dy, bool relu) {
  Reference r;
  const size_t images = static_cast<size_t>(l.n * l.o * l.h * l.w);
  r.y.assign(images, 0.0);
  r.y_scale.assign(images, 0.0);
  r.dx.assign(x.size(), 0.0);
  r.dx_scale.assign(x.size(), 0.0);
  r.dw.assign(w.size(), 0.0);
  r.dw_scale.assign(w.size(), 0.0);
  r.db.assign(b.size(), 0.0);
  r.db_scale.assign(b.size(), 0.0);
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
          r.db[static_cast<size_t>(o)] += dy[yi];
          r.db_scale[static_cast<size_t>(o)] += std::abs(dy[yi]);
        }
  return r;
}

// The conformance suite's FP32 bound for a product of `terms` terms
// (tests/conformance/error_bounds.cpp): 1e-5 + 8 u sqrt(terms).
inline double fp32_product_tolerance(int64_t terms) {
  return 1e-5 + 8.0 * 0x1p-24 * std::sqrt(double(std::max<int64_t>(terms, 1)));
}

// Worst err / (tolerance * scale) over the elements (1 = at the bound).
inline double worst_ratio(const FloatVec& got, const std::vector<double>& want,
                          const std::vector<double>& scale, double tolerance,
                          double* worst_relative) {
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

// Random inputs from the conformance suite's distributions (check_conv2d.cpp).
struct LayerData {
  FloatVec x, w, b, dy;
};

inline LayerData make_layer_data(const Layer& l) {
  std::mt19937 rng(static_cast<unsigned>(l.c * 131 + l.o * 7 + l.h));
  LayerData data;
  data.x = uniform(rng, l.n * l.c * l.h * l.w, 1.0f);
  data.w = uniform(rng, l.o * l.c * 9, 1.0f / std::sqrt(float(l.c * 9)));
  data.b = uniform(rng, l.o, 0.5f);
  data.dy = uniform(rng, l.n * l.o * l.h * l.w, 1.0f);
  return data;
}

// Worst share of the FP32 bound of y, dx, dw and db (1 = at the bound).
struct BoundShares {
  double y, dx, dw, db;  // db 0 when the method did not compute it
};

// Compares `got` with `ref`, prints one line (the README's tables come from
// these lines) and returns the worst shares.
inline BoundShares measure(const char* method, const Layer& l, int64_t images_per_chunk,
                           const Results& got, const Reference& ref) {
  double rel_y, rel_dx, rel_dw, rel_db = 0.0;
  const int64_t pixels = l.n * l.h * l.w;
  const BoundShares shares{
      worst_ratio(got.y, ref.y, ref.y_scale, fp32_product_tolerance(l.c * 9), &rel_y),
      worst_ratio(got.dx, ref.dx, ref.dx_scale, fp32_product_tolerance(l.o * 9), &rel_dx),
      worst_ratio(got.dw, ref.dw, ref.dw_scale, fp32_product_tolerance(pixels), &rel_dw),
      worst_ratio(got.db, ref.db, ref.db_scale, fp32_product_tolerance(pixels), &rel_db)};
  std::printf(
      "%-8s %-6s chunk %lld x[%lld,%lld,%lld,%lld] o=%lld  err/scale: y %.2e  dx %.2e  dw %.2e  "
      "db %.2e  (share of the FP32 bound: %.2f %.2f %.2f %.2f)\n",
      method, l.name, (long long)images_per_chunk, (long long)l.n, (long long)l.c, (long long)l.h,
      (long long)l.w, (long long)l.o, rel_y, rel_dx, rel_dw, rel_db, shares.y, shares.dx, shares.dw,
      shares.db);
  return shares;
}

}  // namespace winograd_test
