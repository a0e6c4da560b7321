// The two gathers around the convolution GEMMs, on channel-major images
// [channels][images][height][width] (p = (n * height + i) * width + j below).
//
// With h = K/2 and a sign s of +1 or -1:
//   ColumnGather (im2col):  columns[(ch*K*K + ky*K + kx)][p] = src[ch][n][i + s(ky-h)][j + s(kx-h)]
//                           (0 outside the image)
//   TapSum (col2im by GATHER, never scatter):
//                           out[ch][p] = act(bias[ch] + sum over (ky,kx) of
//                                        taps[(ch*K*K + ky*K + kx)][n][i + s(ky-h)][j + s(kx-h)])
//                           (terms outside the image skipped; fixed order, no atomics)
// s = +1 is the forward convolution (zero padding), s = -1 its adjoint. See
// v2_conv_steps.cuh for how the convolution is built from them.
#pragma once

#include <cstdint>

#include "v2_vector_access.cuh"

namespace cae_v2 {

// Geometry shared by both gathers.
struct GatherGeometry {
  int64_t channels, images, height, width, kernel;
  int sign;  // +1 or -1

  int64_t pixels() const { return images * height * width; }
  int64_t tap_rows() const { return channels * kernel * kernel; }
  // Four adjacent pixels of one image row per item when the rows allow it.
  __host__ __device__ bool by_quads() const { return width % 4 == 0; }
};

// Position of an item: channel-or-tap row, first pixel p and its (n, i, j).
template <class I>
struct GatherItem {
  I row, p, n, i, j;
};

template <class I>
__host__ __device__ inline GatherItem<I> locate(const GatherGeometry& g, I item) {
  const I per = g.by_quads() ? 4 : 1;
  const I w = static_cast<I>(g.width), hw = static_cast<I>(g.height) * w;
  const I items_per_row = static_cast<I>(g.images) * hw / per;
  GatherItem<I> at;
  at.row = item / items_per_row;
  at.p = (item - at.row * items_per_row) * per;
  at.n = at.p / hw;
  const I rem = at.p - at.n * hw;
  at.i = rem / w;
  at.j = rem - at.i * w;
  return at;
}

struct ColumnGather {
  GatherGeometry g;
  const float* src;  // [channels][pixels]
  float* columns;    // [channels * K * K][pixels]

  int64_t largest_offset() const { return g.tap_rows() * g.pixels(); }
  int64_t work_items() const { return largest_offset() / (g.by_quads() ? 4 : 1); }

  template <class I>
  __host__ __device__ void operator()(I item) const {
    const I w = static_cast<I>(g.width), h = static_cast<I>(g.height), k = static_cast<I>(g.kernel);
    const I hw = h * w, pixels = static_cast<I>(g.images) * hw, half = k / 2;
    const GatherItem<I> at = locate(g, item);  // at.row = ch * K*K + ky * K + kx
    const I ch = at.row / (k * k);
    const I tap = at.row - ch * k * k;
    const I ky = tap / k, kx = tap - ky * k;
    const I si = at.i + g.sign * (ky - half);
    const I sj = at.j + g.sign * (kx - half);
    const bool row_inside = si >= 0 && si < h;
    const float* src_row =
        row_inside ? src + (ch * static_cast<I>(g.images) + at.n) * hw + si * w : src;
    float* dst = columns + at.row * pixels + at.p;
    if (g.by_quads()) {
      float4 v;
      v.x = fetch(src_row, row_inside, sj, w);
      v.y = fetch(src_row, row_inside, sj + 1, w);
      v.z = fetch(src_row, row_inside, sj + 2, w);
      v.w = fetch(src_row, row_inside, sj + 3, w);
      store4(dst, v);
    } else {
      *dst = fetch(src_row, row_inside, sj, w);
    }
  }

  template <class I>
  __host__ __device__ static float fetch(const float* row, bool row_inside, I col, I width) {
    return row_inside && col >= 0 && col < width ? row[col] : 0.0f;
  }
};

struct TapSum {
  GatherGeometry g;
  const float* taps;  // [channels * K * K][pixels]
  const float* bias;  // [channels], or nullptr
  float* out;         // [channels][pixels]
  bool relu;

  int64_t largest_offset() const { return g.tap_rows() * g.pixels(); }
  int64_t work_items() const { return g.channels * g.pixels() / (g.by_quads() ? 4 : 1); }

  template <class I>
  __host__ __device__ void operator()(I item) const {
    const I w = static_cast<I>(g.width), h = static_cast<I>(g.height), k = static_cast<I>(g.kernel);
    const I hw = h * w, pixels = static_cast<I>(g.images) * hw, half = k / 2;
    const GatherItem<I> at = locate(g, item);  // at.row = output channel
    const bool quads = g.by_quads();
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    // Tap rows of this channel, at this image.
    const float* image_taps = taps + at.row * k * k * pixels + at.n * hw;
    for (I ky = 0; ky < k; ++ky) {
      const I si = at.i + g.sign * (ky - half);
      if (si < 0 || si >= h) continue;
      for (I kx = 0; kx < k; ++kx) {
        const I sj = at.j + g.sign * (kx - half);
        const float* src = image_taps + (ky * k + kx) * pixels + si * w;
        if (quads) {
          for (int t = 0; t < 4; ++t) {
            if (sj + t >= 0 && sj + t < w) acc[t] += src[sj + t];
          }
        } else if (sj >= 0 && sj < w) {
          acc[0] += src[sj];
        }
      }
    }
    const float b = bias ? bias[at.row] : 0.0f;
    for (int t = 0; t < 4; ++t) {
      acc[t] += b;
      if (relu) acc[t] = acc[t] > 0.0f ? acc[t] : 0.0f;
    }
    float* dst = out + at.row * pixels + at.p;
    if (quads) {
      store4(dst, make_float4(acc[0], acc[1], acc[2], acc[3]));
    } else {
      *dst = acc[0];
    }
  }
};

}  // namespace cae_v2
