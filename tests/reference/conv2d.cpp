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


// Calls visit(output offset, input offset) for every output (i, j) of a
// [h, w] plane whose input (i + ki - pad, j + kj - pad) under tap (ki, kj)
// lies inside the image (zero padding adds nothing).
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

// The loops below run one image at a time, so a batch opens a few parallel
// regions per image. Below this many multiply-adds per region (the small
// planes of the deep layers) the region runs on the calling thread: starting
// threads would cost more than the work, and far more when other processes
// compete for the cores (an idle OpenMP thread spins).
constexpr int64_t kParallelWork = int64_t(1) << 18;

// Whether one image's products (every output channel against every column)
// are worth a parallel region.
bool parallel_per_image(const ConvDims& d) {
  return d.o * d.c * d.k * d.k * d.h * d.w >= kParallelWork;
}

// The image's columns, transposed: row (c, ki, kj) holds channel c of image n
// shifted by (ki - pad, kj - pad), zero where the shift leaves the image. With
// the padding written out once, every product below is a plain loop over a
// contiguous row, which keeps the reference fast on the small planes of the
// deep layers (2x2, 1x1) as well as on 32x32 ones.
Vec image_columns(const ConvDims& d, const Vec& x, int64_t n) {
  const ImageDims in = d.input();
  const int64_t taps = d.k * d.k, plane = d.h * d.w;
  Vec columns(size_t(d.c * taps * plane), 0.0);
#pragma omp parallel for schedule(static) if (d.c * taps * plane >= kParallelWork)
  for (int64_t c = 0; c < d.c; ++c) {
    const double* xc = &x[image_at(in, n, c, 0, 0)];
    for (int64_t t = 0; t < taps; ++t) {
      double* row = &columns[size_t((c * taps + t) * plane)];
      for_each_tap_pair(d, t / d.k, t % d.k, [&](int64_t at_y, int64_t at_x) { row[at_y] = xc[at_x]; });
    }
  }
  return columns;
}

}  // namespace

Vec conv2d_forward(const ConvDims& d, const Vec& x, const Vec& w, const Vec& b, bool fuse_relu) {
  check_dims("conv2d_forward", d, x, w);
  require_size("conv2d_forward", "b", b, d.o);
  const ImageDims out = d.output();
  const int64_t rows = d.c * d.k * d.k, plane = d.h * d.w;
  Vec y(out.count());
  const bool parallel = parallel_per_image(d);
  // y[n,o] = b[o] + sum over rows r = (c, ki, kj) of w[o,r] * columns_n[r].
  for (int64_t n = 0; n < d.n; ++n) {
    const Vec columns = image_columns(d, x, n);
#pragma omp parallel for schedule(static) if (parallel)
    for (int64_t o = 0; o < d.o; ++o) {
      double* y_plane = &y[image_at(out, n, o, 0, 0)];
      std::fill(y_plane, y_plane + plane, b[o]);
      const double* w_row = &w[weight_at(d, o, 0, 0, 0)];
      for (int64_t r = 0; r < rows; ++r) {
        const double wv = w_row[r];
        const double* column = &columns[size_t(r * plane)];
        for (int64_t e = 0; e < plane; ++e) y_plane[e] += wv * column[e];
      }
      if (fuse_relu) {
        for (int64_t e = 0; e < plane; ++e) y_plane[e] = std::max(y_plane[e], 0.0);
      }
    }
  }
  return y;
}

// The adjoint of the forward: every product w[o,r] * columns_n[r][e] that fed
// y[n,o][e] sends dy[n,o][e] back to both factors; the columns' gradient then
// goes back to the image through the same shifts (each pixel sums the taps
// that read it). Each parallel task owns the elements it sums into, and the
// order of every sum is fixed, so the result does not depend on the threads.
ConvGradients conv2d_backward(const ConvDims& d, const Vec& x, const Vec& w, const Vec& dy,
                              bool want_dx) {
  check_dims("conv2d_backward", d, x, w);
  require_size("conv2d_backward", "dy", dy, d.output().count());
  const ImageDims in = d.input(), out = d.output();
  const int64_t taps = d.k * d.k, rows = d.c * taps, plane = d.h * d.w;
  ConvGradients g;
  g.dw.assign(d.weight_count(), 0.0);
  g.db.assign(d.o, 0.0);
  if (want_dx) g.dx.assign(in.count(), 0.0);
  const bool parallel = parallel_per_image(d);
  for (int64_t n = 0; n < d.n; ++n) {
    const Vec columns = image_columns(d, x, n);
    // dw[o,r] += dy[n,o] . columns_n[r];  db[o] += sum of dy[n,o].
#pragma omp parallel for schedule(static) if (parallel)
    for (int64_t o = 0; o < d.o; ++o) {
      const double* go = &dy[image_at(out, n, o, 0, 0)];
      for (int64_t e = 0; e < plane; ++e) g.db[o] += go[e];
      double* dw_row = &g.dw[weight_at(d, o, 0, 0, 0)];
      for (int64_t r = 0; r < rows; ++r) {
        const double* column = &columns[size_t(r * plane)];
        double acc = 0.0;
        for (int64_t e = 0; e < plane; ++e) acc += go[e] * column[e];
        dw_row[r] += acc;
      }
    }
    if (!want_dx) continue;
    // d columns_n[r] = sum over o of w[o,r] * dy[n,o], then each tap's row
    // goes back to the pixels it was read from.
#pragma omp parallel for schedule(static) if (parallel)
    for (int64_t c = 0; c < d.c; ++c) {
      double* dx_plane = &g.dx[image_at(in, n, c, 0, 0)];
      Vec d_row(static_cast<size_t>(plane));
      for (int64_t t = 0; t < taps; ++t) {
        std::fill(d_row.begin(), d_row.end(), 0.0);
        for (int64_t o = 0; o < d.o; ++o) {
          const double wv = w[weight_at(d, o, c, t / d.k, t % d.k)];
          const double* go = &dy[image_at(out, n, o, 0, 0)];
          for (int64_t e = 0; e < plane; ++e) d_row[e] += wv * go[e];
        }
        for_each_tap_pair(d, t / d.k, t % d.k,
                          [&](int64_t at_y, int64_t at_x) { dx_plane[at_x] += d_row[at_y]; });
      }
    }
  }
  return g;
}

}  // namespace cae_ref
