// Reference convolution: stride 1, zero "same" padding, OIHW weights.
#include <algorithm>

#include "reference_ops.hpp"
#include "size_check.hpp"

namespace cae_ref {
namespace {

void check_dims(const char* op, const ConvDims& d, const Vec& x, const Vec& w) {
  require_that(d.n >= 1 && d.c >= 1 && d.h >= 1 && d.w >= 1 && d.o >= 1, op, "empty dims");
  require_that(d.k >= 1 && d.k % 2 == 1, op, "kernel size must be odd");
  require_size(op, "x", x, d.input().count());
  require_size(op, "w", w, d.weight_count());
}

// Flat offsets in NCHW / OIHW.
int64_t image_at(const ImageDims& s, int64_t n, int64_t c, int64_t i, int64_t j) {
  return ((n * s.c + c) * s.h + i) * s.w + j;
}
int64_t weight_at(const ConvDims& d, int64_t o, int64_t c, int64_t ki, int64_t kj) {
  return ((o * d.c + c) * d.k + ki) * d.k + kj;
}

}  // namespace

Vec conv2d_forward(const ConvDims& d, const Vec& x, const Vec& w, const Vec& b, bool fuse_relu) {
  check_dims("conv2d_forward", d, x, w);
  require_size("conv2d_forward", "b", b, d.o);
  const int64_t pad = d.k / 2;
  const ImageDims in = d.input(), out = d.output();
  Vec y(out.count());
#pragma omp parallel for collapse(2) schedule(dynamic)
  for (int64_t n = 0; n < d.n; ++n) {
    for (int64_t o = 0; o < d.o; ++o) {
      for (int64_t i = 0; i < d.h; ++i) {
        for (int64_t j = 0; j < d.w; ++j) {
          double acc = b[o];
          for (int64_t c = 0; c < d.c; ++c) {
            for (int64_t ki = 0; ki < d.k; ++ki) {
              const int64_t ii = i + ki - pad;
              if (ii < 0 || ii >= d.h) continue;  // zero padding
              for (int64_t kj = 0; kj < d.k; ++kj) {
                const int64_t jj = j + kj - pad;
                if (jj < 0 || jj >= d.w) continue;
                acc += x[image_at(in, n, c, ii, jj)] * w[weight_at(d, o, c, ki, kj)];
              }
            }
          }
          y[image_at(out, n, o, i, j)] = fuse_relu ? std::max(acc, 0.0) : acc;
        }
      }
    }
  }
  return y;
}

// The adjoint of the forward loop: every product x * w that fed y[n,o,i,j]
// sends dy[n,o,i,j] back to both of its factors. Written as two gathers (dw
// and db per output channel, dx per input image and channel) so that each
// parallel task owns the elements it sums into.
ConvGradients conv2d_backward(const ConvDims& d, const Vec& x, const Vec& w, const Vec& dy,
                              bool want_dx) {
  check_dims("conv2d_backward", d, x, w);
  require_size("conv2d_backward", "dy", dy, d.output().count());
  const int64_t pad = d.k / 2;
  const ImageDims in = d.input(), out = d.output();
  ConvGradients g;
  g.dw.assign(d.weight_count(), 0.0);
  g.db.assign(d.o, 0.0);
#pragma omp parallel for schedule(dynamic)
  for (int64_t o = 0; o < d.o; ++o) {
    for (int64_t n = 0; n < d.n; ++n) {
      for (int64_t i = 0; i < d.h; ++i) {
        for (int64_t j = 0; j < d.w; ++j) {
          const double grad = dy[image_at(out, n, o, i, j)];
          g.db[o] += grad;
          for (int64_t c = 0; c < d.c; ++c) {
            for (int64_t ki = 0; ki < d.k; ++ki) {
              const int64_t ii = i + ki - pad;
              if (ii < 0 || ii >= d.h) continue;
              for (int64_t kj = 0; kj < d.k; ++kj) {
                const int64_t jj = j + kj - pad;
                if (jj < 0 || jj >= d.w) continue;
                g.dw[weight_at(d, o, c, ki, kj)] += grad * x[image_at(in, n, c, ii, jj)];
              }
            }
          }
        }
      }
    }
  }
  if (!want_dx) return g;
  g.dx.assign(in.count(), 0.0);
  // x[n,c,ii,jj] fed y[n,o,i,j] through w[o,c,ki,kj] when ii = i + ki - pad.
#pragma omp parallel for collapse(2) schedule(dynamic)
  for (int64_t n = 0; n < d.n; ++n) {
    for (int64_t c = 0; c < d.c; ++c) {
      for (int64_t ii = 0; ii < d.h; ++ii) {
        for (int64_t jj = 0; jj < d.w; ++jj) {
          double acc = 0.0;
          for (int64_t o = 0; o < d.o; ++o) {
            for (int64_t ki = 0; ki < d.k; ++ki) {
              const int64_t i = ii - ki + pad;
              if (i < 0 || i >= d.h) continue;
              for (int64_t kj = 0; kj < d.k; ++kj) {
                const int64_t j = jj - kj + pad;
                if (j < 0 || j >= d.w) continue;
                acc += dy[image_at(out, n, o, i, j)] * w[weight_at(d, o, c, ki, kj)];
              }
            }
          }
          g.dx[image_at(in, n, c, ii, jj)] = acc;
        }
      }
    }
  }
  return g;
}

}  // namespace cae_ref
