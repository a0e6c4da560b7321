// im2col and col2im for one image: the rearrangement that turns a stride-1,
// "same"-padded convolution into one matrix product.
//
// The column matrix of an image x [C,H,W] and a K×K kernel is
// [C·K·K, H·W], row-major: row (c·K + kh)·K + kw holds, for every output
// position (oh, ow), the input x[c, oh + kh - K/2, ow + kw - K/2], or 0 where
// that falls in the padding. Then conv(x, w) = w [O, C·K·K] · columns.
#pragma once

#include <cstdint>

namespace cae_cpu {

struct ConvGeometry {
  int64_t channels, height, width, kernel;

  int64_t pad() const { return kernel / 2; }
  int64_t plane() const { return height * width; }                    // columns
  int64_t column_rows() const { return channels * kernel * kernel; }  // rows
  int64_t column_size() const { return column_rows() * plane(); }
};

// Fills columns [C·K·K, H·W] from image [C,H,W].
void im2col(const ConvGeometry& g, const float* image, float* columns) noexcept;

// The adjoint of im2col: image [C,H,W] = the sum of every column entry at the
// input position it was copied from (padding entries are dropped). Overwrites
// image; the sum runs over the rows in order, so it is deterministic.
void col2im(const ConvGeometry& g, const float* columns, float* image) noexcept;

}  // namespace cae_cpu
