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

// Calls visit(output offset, input offset) for every output (i, j) of a
// [h, w] plane whose input (i + ki - pad, j + kj - pad) under tap (ki, kj)
// lies inside the image. Looping over that range replaces a bounds test per
// product (zero padding adds nothing). Forward, dw and dx all walk taps so.
template <class Visit>
void for_each_tap_pair(const ConvDims& d, int64_t ki, int64_t kj, Visit visit) {
  const int64_t pad = d.k / 2, di = ki - pad, dj = kj - pad;
  const int64_t i_lo = std::max<int64_t>(0, -di), i_hi = std::min<int64_t>(d.h, d.h - di);
  const int64_t j_lo = std::max<int64_t>(0, -dj), j_hi = std::min<int64_t>(d.w, d.w - dj);
  for (int64_t i = i_lo; i < i_hi; ++i) {
    const int64_t out_row = i * d.w, in_row = (i + di) * d.w + dj;
    for (int64_t j = j_lo; j < j_hi; ++j) visit(out_row + j, in_row + j);
  }
}

Vec conv2d_forward(const ConvDims& d, const Vec& x, const Vec& w, const Vec& b, bool fuse_relu) {
  check_dims("conv2d_forward", d, x, w);
  require_size("conv2d_forward", "b", b, d.o);
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
          for (int64_t kj = 0; kj < d.k; ++kj) {
            const double wv = w[weight_at(d, o, c, ki, kj)];
            for_each_tap_pair(d, ki, kj,
                              [&](int64_t at_y, int64_t at_x) { plane[at_y] += wv * xc[at_x]; });
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
          for (int64_t kj = 0; kj < d.k; ++kj) {
            double acc = 0.0;
            for_each_tap_pair(d, ki, kj,
                              [&](int64_t at_y, int64_t at_x) { acc += go[at_y] * xc[at_x]; });
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
          for (int64_t kj = 0; kj < d.k; ++kj) {
            const double wv = w[weight_at(d, o, c, ki, kj)];
            for_each_tap_pair(d, ki, kj,
                              [&](int64_t at_y, int64_t at_x) { plane[at_x] += wv * go[at_y]; });
          }
        }
      }
    }
  }
  return g;
}

}  // namespace cae_ref
