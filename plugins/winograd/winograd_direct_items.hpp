// The per-item bodies of the direct path (layers with few channels on one
// side, winograd_direct_passes.hpp): a direct 3x3 convolution for the forward
// and the data gradient, the im2col of the narrow side and the fixed-order sum
// of per-image weight-gradient partials. __host__ __device__ functors, like
// winograd_conv_items.hpp, so the unit test runs the very indexing the GPU runs.
//
// Every output element is one float32 dot product of its terms in a fixed
// order (input channel, then tap row, then tap column; FMA), the error of a
// direct convolution: the Winograd transforms' amplified rounding is what made
// the 3-channel layers fail the FP32 bound (README.md, "Numerical error").
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
// gradient as a [channels * 9] x [pixels] matrix per image. Pixel fastest.
struct Im2col {
  const float* in;  // [*][channels][height][width]
  float* col;       // [images][channels * 9][height * width]
  int64_t first_image, images, channels, height, width;
  WINOGRAD_HD int64_t count() const { return images * channels * kTaps * kTaps * height * width; }
  WINOGRAD_HD void operator()(int64_t i) const {
    const int64_t plane = height * width;
    const int64_t x = i % width, r = (i / width) % height;
    const int64_t row_of_col = (i / plane) % (channels * kTaps * kTaps);
    const int64_t n = i / (plane * channels * kTaps * kTaps);
    const int64_t ch = row_of_col / (kTaps * kTaps), tap = row_of_col % (kTaps * kTaps);
    const int64_t y = r + tap / kTaps - 1, xx = x + tap % kTaps - 1;
    const bool inside = y >= 0 && y < height && xx >= 0 && xx < width;
    col[i] = inside
                 ? load_readonly(in + ((first_image + n) * channels + ch) * plane + y * width + xx)
                 : 0.0f;
  }
};

// dw[o][c][tap] (+)= sum over the pass's images, in image order, of the
// per-image partials the GEMM left in `partial` ([images][wide][narrow * 9]):
//   narrow input (x was im2col'd):  partial[n][o][c * 9 + tap];
//   narrow output (dy was im2col'd, its taps reversed):
//                                   partial[n][c][o * 9 + 8 - tap].
// `accumulate` adds to the earlier passes' sum (fixed pass order).
struct FilterGradientSum {
  const float* partial;
  float* dw;
  int64_t out_channels, in_channels, images;
  bool narrow_input, accumulate;
  WINOGRAD_HD int64_t count() const { return out_channels * in_channels * kTaps * kTaps; }
  WINOGRAD_HD int64_t partial_index(int64_t i) const {
    if (narrow_input) return i;
    const int64_t tap = i % (kTaps * kTaps), pair = i / (kTaps * kTaps);
    const int64_t o = pair / in_channels, c = pair % in_channels;
    return (c * out_channels + o) * kTaps * kTaps + (kTaps * kTaps - 1 - tap);
  }
  WINOGRAD_HD void operator()(int64_t i) const {
    const int64_t at = partial_index(i), per_image = count();
    float sum = accumulate ? dw[i] : 0.0f;
    for (int64_t n = 0; n < images; ++n) sum += load_readonly(partial + n * per_image + at);
    dw[i] = sum;
  }
};

}  // namespace cae_winograd
