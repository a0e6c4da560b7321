// Reference nearest-neighbour 2x upsample and its backward (block sums).
#include "reference_ops.hpp"
#include "size_check.hpp"

namespace cae_ref {

Vec upsample2x_forward(const ImageDims& d, const Vec& x) {
  require_size("upsample2x_forward", "x", x, d.count());
  const int64_t bh = 2 * d.h, bw = 2 * d.w;
  Vec y(d.n * d.c * bh * bw);
  for (int64_t plane = 0; plane < d.n * d.c; ++plane) {
    for (int64_t i = 0; i < bh; ++i) {
      for (int64_t j = 0; j < bw; ++j) {
        y[(plane * bh + i) * bw + j] = x[(plane * d.h + i / 2) * d.w + j / 2];
      }
    }
  }
  return y;
}

Vec upsample2x_backward(const ImageDims& d, const Vec& dy) {
  const int64_t bh = 2 * d.h, bw = 2 * d.w;
  require_size("upsample2x_backward", "dy", dy, d.n * d.c * bh * bw);
  Vec dx(d.count(), 0.0);
  for (int64_t plane = 0; plane < d.n * d.c; ++plane) {
    for (int64_t i = 0; i < bh; ++i) {
      for (int64_t j = 0; j < bw; ++j) {
        dx[(plane * d.h + i / 2) * d.w + j / 2] += dy[(plane * bh + i) * bw + j];
      }
    }
  }
  return dx;
}

}  // namespace cae_ref
