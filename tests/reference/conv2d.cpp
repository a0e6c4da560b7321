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

// The valid output range [lo, hi) for kernel offset `k` (0..K-1) along an
// axis of `size`: the outputs i whose input i + k - pad lies inside the image.
// Looping over it replaces a bounds test per product (zero padding adds nothing).
struct Span {
  int64_t lo, hi;
};
Span valid_outputs(int64_t k, int64_t pad, int64_t size) {
  const int64_t shift = k - pad;
  return {std::max<int64_t>(0, -shift), std::min<int64_t>(size, size - shift)};
}

Vec conv2d_forward(const ConvDims& d, const Vec& x, const Vec& w, const Vec& b, bool fuse_relu) {
  check_dims("conv2d_forward", d, x, w);
  require_size("conv2d_forward", "b", b, d.o);
  const int64_t pad = d.k / 2;
  const ImageDims in = d.input(), out = d.output();
  Vec y(out.count());
  // y[n,o] = b[o] + sum over c, ki, kj of w[o,c,ki,kj] * (x[n,c] shifted by
  // (ki - pad, kj - pad)): one shifted multiply-add of a whole plane per tap.
#pragma omp parallel for collapse(2) schedule(dynamic)
  for (int64_t n = 0; n < d.n; ++n) {
    for (int64_t o = 0; o < d.o; ++o) {
      double* plane = &y[image_at(out, n, o, 0, 0)];
      std::fill(plane, plane + d.h * d.w, b[o]);
      for (int64_t c = 0; c < d.c; ++c) {
        const double* xc = &x[image_at(in, n, c, 0, 0)];
        for (int64_t ki = 0; ki < d.k; ++ki) {
          const Span rows = valid_outputs(ki, pad, d.h);
          for (int64_t kj = 0; kj < d.k; ++kj) {
            const Span cols = valid_outputs(kj, pad, d.w);
            const double wv = w[weight_at(d, o, c, ki, kj)];
            for (int64_t i = rows.lo; i < rows.hi; ++i) {
              const double* xr = xc + (i + ki - pad) * d.w + (kj - pad);
              double* yr = plane + i * d.w;
              for (int64_t j = cols.lo; j < cols.hi; ++j) yr[j] += wv * xr[j];
            }
          }
        }
      }
      if (fuse_relu) {
        for (int64_t e = 0; e < d.h * d.w; ++e) plane[e] = std::max(plane[e], 0.0);
      }
    }
  }
  return y;
}

// The adjoint of the forward loop: every product w * x that fed y[n,o,i,j]
// sends dy[n,o,i,j] back to both of its factors. Written as gathers (dw and
// db per output channel, dx per input image and channel) so that each
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
  // dw[o,c,ki,kj] = sum over n, i, j of dy[n,o,i,j] * x[n,c,i+ki-pad,j+kj-pad]
#pragma omp parallel for schedule(dynamic)
  for (int64_t o = 0; o < d.o; ++o) {
    for (int64_t n = 0; n < d.n; ++n) {
      const double* go = &dy[image_at(out, n, o, 0, 0)];
      for (int64_t e = 0; e < d.h * d.w; ++e) g.db[o] += go[e];
      for (int64_t c = 0; c < d.c; ++c) {
        const double* xc = &x[image_at(in, n, c, 0, 0)];
        for (int64_t ki = 0; ki < d.k; ++ki) {
          const Span rows = valid_outputs(ki, pad, d.h);
          for (int64_t kj = 0; kj < d.k; ++kj) {
            const Span cols = valid_outputs(kj, pad, d.w);
            double acc = 0.0;
            for (int64_t i = rows.lo; i < rows.hi; ++i) {
              const double* xr = xc + (i + ki - pad) * d.w + (kj - pad);
              const double* gr = go + i * d.w;
              for (int64_t j = cols.lo; j < cols.hi; ++j) acc += gr[j] * xr[j];
            }
            g.dw[weight_at(d, o, c, ki, kj)] += acc;
          }
        }
      }
    }
  }
  if (!want_dx) return g;
  g.dx.assign(in.count(), 0.0);
  // dx[n,c] = sum over o, ki, kj of w[o,c,ki,kj] * (dy[n,o] shifted back by
  // (ki - pad, kj - pad)): the forward's scatter, written as a gather into dx.
#pragma omp parallel for collapse(2) schedule(dynamic)
  for (int64_t n = 0; n < d.n; ++n) {
    for (int64_t c = 0; c < d.c; ++c) {
      double* plane = &g.dx[image_at(in, n, c, 0, 0)];
      for (int64_t o = 0; o < d.o; ++o) {
        const double* go = &dy[image_at(out, n, o, 0, 0)];
        for (int64_t ki = 0; ki < d.k; ++ki) {
          const Span rows = valid_outputs(ki, pad, d.h);
          for (int64_t kj = 0; kj < d.k; ++kj) {
            const Span cols = valid_outputs(kj, pad, d.w);
            const double wv = w[weight_at(d, o, c, ki, kj)];
            for (int64_t i = rows.lo; i < rows.hi; ++i) {
              double* xr = plane + (i + ki - pad) * d.w + (kj - pad);
              const double* gr = go + i * d.w;
              for (int64_t j = cols.lo; j < cols.hi; ++j) xr[j] += wv * gr[j];
            }
          }
        }
      }
    }
  }
  return g;
}

}  // namespace cae_ref
