// The per-item bodies of the direct path (layers with few channels on one
// side, winograd_direct_passes.hpp): a direct 3x3 convolution for the forward
// and the data gradient, the im2col of the narrow side and the fixed-order sum
// of per-image weight-gradient partials. __host__ __device__ functors, like
// winograd_conv_items.hpp, so the unit test runs the very indexing the GPU runs.
//
// Every output element is one float32 dot product of its terms in a fixed
// order (input channel, then tap row, then tap column; FMA), the error of a
// direct convolution: the Winograd transforms' amplified rounding is what made
// the 3-channel layers fail the FP32 bound (README.md, "Precision and conformance").
#pragma once

#include <cmath>
#include <cstdint>

#include "winograd_tile_math.hpp"

namespace cae_winograd {

// Reads through the read-only data cache on the device (the operands of these
// items are never written by the same kernel).
WINOGRAD_HD float load_readonly(const float* p) {
#if defined(__CUDA_ARCH__)
  return __ldg(p);
#else
  return *p;
#endif
}

// The 3x3 filter of one convolution as the direct kernel sees it:
// at(out, in, tap) with tap = ky * 3 + kx.
//   forward:  w[out][in][tap] of OIHW weights [out_channels][in_channels];
//   flipped:  the data gradient's dx = conv(dy, w'), w'[c][o] = rot180(w[o][c]),
//             read from the same OIHW weights [in_channels][out_channels].
struct DirectFilter {
  const float* w;
  int64_t out_channels, in_channels;
  bool flipped;
  WINOGRAD_HD const float* taps(int64_t out, int64_t in) const {
    return flipped ? w + (in * out_channels + out) * kTaps * kTaps
                   : w + (out * in_channels + in) * kTaps * kTaps;
  }
  WINOGRAD_HD float at(const float* taps_of_pair, int tap) const {
    return load_readonly(taps_of_pair + (flipped ? kTaps * kTaps - 1 - tap : tap));
  }
};

// Output columns per item: one 6-wide input row serves the 3 taps of 4 outputs.
constexpr int kDirectColumns = 4;

// out[n][o][r][4 columns] = [ReLU](sum_{c, ky, kx} in[n][c][r+ky-1][col+kx-1]
// filter(o, c, ky, kx) + bias[o]) for the Group output channels of one group.
// Items run column quad fastest, then row, image, channel group: adjacent
// threads read adjacent pixels and all of a warp read the same filter taps.
// Registers: Group x 4 sums; Group 16 for wide outputs (a loaded input row
// feeds 16 x 12 FMAs), 4 for narrow ones (few wasted lanes when O = 3).
template <int Group>
struct DirectConv {
  const float* in;  // [images][in_channels][height][width]
  DirectFilter filter;
  const float* bias;  // [out_channels] or nullptr
  float* out;         // [images][out_channels][height][width]
  int64_t images, height, width;
  bool relu;

  WINOGRAD_HD int64_t quads() const { return (width + kDirectColumns - 1) / kDirectColumns; }
  WINOGRAD_HD int64_t groups() const { return (filter.out_channels + Group - 1) / Group; }
  WINOGRAD_HD int64_t count() const { return groups() * images * height * quads(); }

  WINOGRAD_HD void operator()(int64_t i) const {
    const int64_t col0 = (i % quads()) * kDirectColumns;
    const int64_t row = (i / quads()) % height;
    const int64_t n = (i / (quads() * height)) % images;
    const int64_t o0 = (i / (quads() * height * images)) * Group;
    const int64_t plane = height * width;
    float sum[Group][kDirectColumns];
    WINOGRAD_UNROLLED_LOOP(k, Group) {
      WINOGRAD_UNROLLED_LOOP(p, kDirectColumns) { sum[k][p] = 0.0f; }
    }
    for (int64_t c = 0; c < filter.in_channels; ++c) {
      const float* in_plane = in + (n * filter.in_channels + c) * plane;
      for (int ky = 0; ky < kTaps; ++ky) {
        const int64_t y = row + ky - 1;
        if (y < 0 || y >= height) continue;  // padding rows add no terms
        float line[kDirectColumns + kTaps - 1];
        WINOGRAD_UNROLLED_LOOP(t, kDirectColumns + kTaps - 1) {
          const int64_t x = col0 + t - 1;
          line[t] = (x >= 0 && x < width) ? load_readonly(in_plane + y * width + x) : 0.0f;
        }
        // Conditions, not breaks: the loops stay fully unrolled, so the sums
        // stay in registers.
        WINOGRAD_UNROLLED_LOOP(k, Group) {
          if (o0 + k < filter.out_channels) {
            const float* taps = filter.taps(o0 + k, c);
            WINOGRAD_UNROLLED_LOOP(kx, kTaps) {
              const float tap = filter.at(taps, ky * kTaps + kx);
              WINOGRAD_UNROLLED_LOOP(p, kDirectColumns) {
                sum[k][p] = fmaf(line[p + kx], tap, sum[k][p]);
              }
            }
          }
        }
      }
    }
    WINOGRAD_UNROLLED_LOOP(k, Group) {
      const int64_t o = o0 + k;
      if (o < filter.out_channels) {
        float* out_row = out + ((n * filter.out_channels + o) * height + row) * width;
        const float b = bias ? bias[o] : 0.0f;
        WINOGRAD_UNROLLED_LOOP(p, kDirectColumns) {
          if (col0 + p < width) {  // the last quad of a row may be partial
            float value = sum[k][p] + b;
            if (relu) value = value > 0.0f ? value : 0.0f;
            out_row[col0 + p] = value;
          }
        }
      }
    }
  }
};

// col[n][ch * 9 + tap][r][x] = in[first + n][ch][r + ky - 1][x + kx - 1] (zero
// outside) for the images of one pass: the narrow side of the weight
// gradient as a [channels * 9 (+ 1)] x [pixels] matrix per image. With
// ones_row, a last row of ones makes the same GEMM yield the other side's
// plane sums (the bias gradient, when the other side is dy). Pixel fastest.
struct Im2col {
  const float* in;  // [*][channels][height][width]
  float* col;       // [images][rows()][height * width]
  int64_t first_image, images, channels, height, width;
  bool ones_row;
  WINOGRAD_HD int64_t rows() const { return channels * kTaps * kTaps + (ones_row ? 1 : 0); }
  WINOGRAD_HD int64_t count() const { return images * rows() * height * width; }
  WINOGRAD_HD void operator()(int64_t i) const {
    const int64_t plane = height * width;
    const int64_t x = i % width, r = (i / width) % height;
    const int64_t row_of_col = (i / plane) % rows();
    const int64_t n = i / (plane * rows());
    if (row_of_col == channels * kTaps * kTaps) {  // the ones row
      col[i] = 1.0f;
      return;
    }
    const int64_t ch = row_of_col / (kTaps * kTaps), tap = row_of_col % (kTaps * kTaps);
    const int64_t y = r + tap / kTaps - 1, xx = x + tap % kTaps - 1;
    const bool inside = y >= 0 && y < height && xx >= 0 && xx < width;
    col[i] = inside
                 ? load_readonly(in + ((first_image + n) * channels + ch) * plane + y * width + xx)
                 : 0.0f;
  }
};

// The per-image partials the weight gradient's GEMM leaves:
// partial[n][wide][rows], rows = 9 narrow (+ 1 for the ones row).
//   narrow input (x was im2col'd):  dw[o][c][tap] = partial[n][o][c * 9 + tap],
//                                   db[o] = partial[n][o][9 C] (the ones row);
//   narrow output (dy was im2col'd, its taps reversed):
//                                   dw[o][c][tap] = partial[n][c][o * 9 + 8 - tap].
struct FilterGradientPartials {
  const float* partial;
  int64_t out_channels, in_channels, rows;
  bool narrow_input;
  WINOGRAD_HD int64_t wide() const { return narrow_input ? out_channels : in_channels; }
  // Offset within an image of dw's element i = (o C + c) 9 + tap.
  WINOGRAD_HD int64_t filter_offset(int64_t i) const {
    const int64_t tap = i % (kTaps * kTaps), pair = i / (kTaps * kTaps);
    const int64_t o = pair / in_channels, c = pair % in_channels;
    return narrow_input ? o * rows + c * kTaps * kTaps + tap
                        : c * rows + o * kTaps * kTaps + (kTaps * kTaps - 1 - tap);
  }
  // Offset within an image of db[o] (narrow input only: the ones row).
  WINOGRAD_HD int64_t bias_offset(int64_t o) const { return o * rows + rows - 1; }
  // out (+)= the images' partials at `offset`, in image order; `accumulate`
  // adds to the earlier passes' sum (fixed pass order).
  WINOGRAD_HD void sum_images(int64_t images, int64_t offset, bool accumulate, float& out) const {
    float sum = accumulate ? out : 0.0f;
    for (int64_t n = 0; n < images; ++n) sum += load_readonly(partial + n * wide() * rows + offset);
    out = sum;
  }
};

// dw[o][c][tap] (+)= the sum over the pass's images of its partials.
struct FilterGradientSum {
  FilterGradientPartials partials;
  float* dw;
  int64_t images;
  bool accumulate;
  WINOGRAD_HD int64_t count() const {
    return partials.out_channels * partials.in_channels * kTaps * kTaps;
  }
  WINOGRAD_HD void operator()(int64_t i) const {
    partials.sum_images(images, partials.filter_offset(i), accumulate, dw[i]);
  }
};

// db[o] (+)= the sum over the pass's images of the ones row's partials.
struct BiasGradientSum {
  FilterGradientPartials partials;
  float* db;
  int64_t images;
  bool accumulate;
  WINOGRAD_HD int64_t count() const { return partials.out_channels; }
  WINOGRAD_HD void operator()(int64_t o) const {
    partials.sum_images(images, partials.bias_offset(o), accumulate, db[o]);
  }
};

}  // namespace cae_winograd
