// The per-item bodies of the Winograd convolution's transform steps: one item
// per (channel, tile) or per (o, c) filter. __host__ __device__ functors, so
// the CUDA kernels (winograd_conv.cu) and the unit test's host executor run
// the very same indexing. Transformed data are stored point-major,
// [36][rows][P], so that the 36 GEMMs are one strided batch and neighbouring
// items (adjacent tiles p) write adjacent addresses.
#pragma once

#include <cstdint>

#include "winograd_tile_io.hpp"

namespace cae_winograd {

// Where the tiles of one pass lie: images [first_image, first_image + images)
// of a batch of [*, channels, height, width] images.
struct TileGrid {
  int64_t height, width;
  int64_t tiles_w, tiles_per_image;
  int64_t first_image, images;
  WINOGRAD_HD int64_t tiles() const { return images * tiles_per_image; }
  WINOGRAD_HD int64_t image_of(int64_t p) const { return first_image + p / tiles_per_image; }
  WINOGRAD_HD int64_t row_of(int64_t p) const { return (p % tiles_per_image) / tiles_w; }
  WINOGRAD_HD int64_t col_of(int64_t p) const { return (p % tiles_per_image) % tiles_w; }
};

// v[xi][c][p] = (B^T d B)[xi] of the 6x6 input patch of tile p (zero padding).
struct InputTransform {
  const float* in;
  float* v;
  int64_t channels;
  TileGrid g;
  WINOGRAD_HD int64_t count() const { return channels * g.tiles(); }
  WINOGRAD_HD void operator()(int64_t i) const {
    const int64_t P = g.tiles(), p = i % P, c = i / P;
    float d[6][6], t[6][6];
    gather_input_tile(in + (g.image_of(p) * channels + c) * g.height * g.width, g.height, g.width,
                      g.row_of(p), g.col_of(p), d);
    input_transform(d, t);
    WINOGRAD_UNROLLED_LOOP(k, kPoints) { v[k * count() + c * P + p] = t[k / 6][k % 6]; }
  }
};

// out[n][o][4x4 tile p] = A^T m A (+ bias, ReLU), dropping pixels past the edge.
struct OutputTransform {
  const float* m;
  const float* bias;  // may be nullptr
  float* out;
  int64_t channels;
  TileGrid g;
  bool relu;
  WINOGRAD_HD int64_t count() const { return channels * g.tiles(); }
  WINOGRAD_HD void operator()(int64_t i) const {
    const int64_t P = g.tiles(), p = i % P, o = i / P;
    float t[6][6], y[4][4];
    WINOGRAD_UNROLLED_LOOP(k, kPoints) { t[k / 6][k % 6] = m[k * count() + o * P + p]; }
    output_transform(t, y);
    scatter_output_tile(y, bias ? bias[o] : 0.0f, relu,
                        out + (g.image_of(p) * channels + o) * g.height * g.width, g.height,
                        g.width, g.row_of(p), g.col_of(p));
  }
};

// e[xi][o][p] = (A dy A^T)[xi] of the 4x4 output-gradient tile p (zeros past
// the edge: those outputs do not exist).
struct OutputGradientTransform {
  const float* dy;
  float* e;
  int64_t channels;
  TileGrid g;
  WINOGRAD_HD int64_t count() const { return channels * g.tiles(); }
  WINOGRAD_HD void operator()(int64_t i) const {
    const int64_t P = g.tiles(), p = i % P, o = i / P;
    float d[4][4], t[6][6];
    gather_output_tile(dy + (g.image_of(p) * channels + o) * g.height * g.width, g.height, g.width,
                       g.row_of(p), g.col_of(p), d);
    output_gradient_transform(d, t);
    WINOGRAD_UNROLLED_LOOP(k, kPoints) { e[k * count() + o * P + p] = t[k / 6][k % 6]; }
  }
};

// Forward: u[xi][o][c] = (G w[o][c] G^T)[xi].
// Data gradient (flipped): u[xi][c][o] = (G rot180(w[o][c]) G^T)[xi], the
// filter of dx = conv(dy, w') with w'[c][o] = w[o][c] rotated by 180 degrees.
struct FilterTransform {
  const float* w;
  float* u;
  int64_t out_channels, in_channels;
  bool flipped;
  WINOGRAD_HD int64_t count() const { return out_channels * in_channels; }
  WINOGRAD_HD void operator()(int64_t i) const {
    const int64_t o = i / in_channels, c = i % in_channels;
    float g3[3][3], t[6][6];
    load_filter(w + i * kTaps * kTaps, flipped, g3);
    filter_transform(g3, t);
    const int64_t at = flipped ? c * out_channels + o : i;
    WINOGRAD_UNROLLED_LOOP(k, kPoints) { u[k * count() + at] = t[k / 6][k % 6]; }
  }
};

// dw[o][c] = G^T du[.][o][c] G: the weight gradient back from the Winograd domain.
struct FilterGradient {
  const float* du;
  float* dw;
  int64_t out_channels, in_channels;
  int64_t height, width;  // of the images
  WINOGRAD_HD int64_t count() const { return out_channels * in_channels; }
  // A tap that never meets the image (an off-centre row of a 1-pixel-high
  // image, or column of a 1-pixel-wide one) sums no terms: its gradient is
  // exactly 0, where the transforms would leave rounding noise from the other
  // points of the tile.
  WINOGRAD_HD bool meets_image(int ky, int kx) const {
    return (ky == kTaps / 2 || height > 1) && (kx == kTaps / 2 || width > 1);
  }
  WINOGRAD_HD void operator()(int64_t i) const {
    float t[6][6], g3[3][3];
    WINOGRAD_UNROLLED_LOOP(k, kPoints) { t[k / 6][k % 6] = du[k * count() + i]; }
    filter_gradient_transform(t, g3);
    WINOGRAD_UNROLLED_LOOP(k, kTaps * kTaps) {
      dw[i * 9 + k] = meets_image(k / 3, k % 3) ? g3[k / 3][k % 3] : 0.0f;
    }
  }
};

}  // namespace cae_winograd
