// Per-item work of the 2x2 max-pool and the nearest-neighbour 2x upsample on
// NHWC tensors. One item is kVec consecutive channels of one SMALL-image
// pixel q = (n * h + i) * w + j, whose 2x2 window in the large image starts at
// (n, 2i, 2j). __host__ __device__ so the host test can run them.
//
// Max-pool choices: forward records, per output element, which window element
// holds the max (0..3 in the order (0,0), (0,1), (1,0), (1,1); ties go to the
// FIRST, by strict comparisons) and, in bit 2, whether that max is > 0. The
// backward pass uses the record when its tensor has not changed since, or
// re-derives it from x with the same comparisons, so the two always agree.
//
// Each body can also write the BF16 copy of what it writes (its last member,
// nullptr: none), laid out like the FP32 tensor: v4 asks for it where a BF16
// GEMM reads that tensor next (plugins/v4/v4_bf16_copies.hpp).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "nhwc_pixels.cuh"

namespace cae_cuda {

constexpr uint8_t kChoicePositive = 4;

// Geometry of the small image and the items over it.
struct HalfGrid {
  uint32_t small_width, big_width;  // w and 2w
  uint32_t small_rows;              // h (rows per image)
  uint32_t channels;
  FastDivide by_chunks;  // channels / kVec
  FastDivide by_width;   // w
  FastDivide by_plane;   // h * w

  HalfGrid() = default;
  __host__ HalfGrid(uint32_t h, uint32_t w, uint32_t c, uint32_t vec)
      : small_width(w),
        big_width(2 * w),
        small_rows(h),
        channels(c),
        by_chunks(c / vec),
        by_width(w),
        by_plane(h * w) {}

  // Small pixel and first channel of an item; the large pixel index of its window's (0,0).
  __host__ __device__ void place(uint32_t item, uint32_t vec, int64_t& small_pixel,
                                 int64_t& big_pixel, uint32_t& c) const {
    uint32_t q = 0, chunk = 0, n = 0, rest = 0, i = 0, j = 0;
    by_chunks.split(item, q, chunk);
    by_plane.split(q, n, rest);
    by_width.split(rest, i, j);
    small_pixel = q;
    big_pixel = (static_cast<int64_t>(n) * (2 * small_rows) + 2 * i) * big_width + 2 * j;
    c = chunk * vec;
  }
};

// Index (0..3) of the first max of a window, and the max.
__host__ __device__ inline uint8_t first_max(float v0, float v1, float v2, float v3, float& best) {
  uint8_t at = 0;
  best = v0;
  if (v1 > best) {
    best = v1;
    at = 1;
  }
  if (v2 > best) {
    best = v2;
    at = 2;
  }
  if (v3 > best) {
    best = v3;
    at = 3;
  }
  return at;
}

template <int kVec>
struct PoolForward {
  HalfGrid g;
  const float* x;
  float* y;
  uint8_t* choice;  // nullptr: not recorded
  __nv_bfloat16* y_bf16 = nullptr;

  __host__ __device__ void operator()(uint32_t item) const {
    int64_t q = 0, b = 0;
    uint32_t c = 0;
    g.place(item, kVec, q, b, c);
    const int64_t C = g.channels;
    const Floats<kVec> v0 = load_floats<kVec>(x + b * C + c);
    const Floats<kVec> v1 = load_floats<kVec>(x + (b + 1) * C + c);
    const Floats<kVec> v2 = load_floats<kVec>(x + (b + g.big_width) * C + c);
    const Floats<kVec> v3 = load_floats<kVec>(x + (b + g.big_width + 1) * C + c);
    Floats<kVec> best;
    uint8_t code[kVec];
    for (int t = 0; t < kVec; ++t) {
      code[t] = first_max(v0.v[t], v1.v[t], v2.v[t], v3.v[t], best.v[t]);
      if (best.v[t] > 0.0f) code[t] |= kChoicePositive;
    }
    store_floats<kVec>(y + q * C + c, best);
    if (y_bf16) store_bf16<kVec>(y_bf16 + q * C + c, best);
    if (choice) {
      for (int t = 0; t < kVec; ++t) choice[q * C + c + t] = code[t];
    }
  }
};

// dx (large) from dy (small). With relu_after, also applies the ReLU backward
// of the pool's input (dx = 0 where x <= 0), which at the chosen element is
// "the max is > 0".
template <int kVec>
struct PoolBackward {
  HalfGrid g;
  const float* x;         // used when choice is nullptr
  const uint8_t* choice;  // recorded by PoolForward, or nullptr
  const float* dy;
  float* dx;
  bool relu_after;
  __nv_bfloat16* dx_bf16 = nullptr;

  __host__ __device__ void operator()(uint32_t item) const {
    int64_t q = 0, b = 0;
    uint32_t c = 0;
    g.place(item, kVec, q, b, c);
    const int64_t C = g.channels;
    const int64_t rows[4] = {b, b + 1, b + g.big_width, b + g.big_width + 1};
    uint8_t code[kVec];
    if (choice) {
      for (int t = 0; t < kVec; ++t) code[t] = choice[q * C + c + t];
    } else {
      const Floats<kVec> v0 = load_floats<kVec>(x + rows[0] * C + c);
      const Floats<kVec> v1 = load_floats<kVec>(x + rows[1] * C + c);
      const Floats<kVec> v2 = load_floats<kVec>(x + rows[2] * C + c);
      const Floats<kVec> v3 = load_floats<kVec>(x + rows[3] * C + c);
      for (int t = 0; t < kVec; ++t) {
        float best = 0.0f;
        code[t] = first_max(v0.v[t], v1.v[t], v2.v[t], v3.v[t], best);
        if (best > 0.0f) code[t] |= kChoicePositive;
      }
    }
    const Floats<kVec> grad = load_floats<kVec>(dy + q * C + c);
    for (int at = 0; at < 4; ++at) {
      Floats<kVec> out;
      for (int t = 0; t < kVec; ++t) {
        const bool chosen = (code[t] & 3) == at && (!relu_after || (code[t] & kChoicePositive));
        out.v[t] = chosen ? grad.v[t] : 0.0f;
      }
      store_floats<kVec>(dx + rows[at] * C + c, out);
      if (dx_bf16) store_bf16<kVec>(dx_bf16 + rows[at] * C + c, out);
    }
  }
};

template <int kVec>
struct UpsampleForward {
  HalfGrid g;
  const float* x;  // small
  float* y;        // large
  __nv_bfloat16* y_bf16 = nullptr;

  __host__ __device__ void operator()(uint32_t item) const {
    int64_t q = 0, b = 0;
    uint32_t c = 0;
    g.place(item, kVec, q, b, c);
    const int64_t C = g.channels;
    const Floats<kVec> v = load_floats<kVec>(x + q * C + c);
    store_floats<kVec>(y + b * C + c, v);
    store_floats<kVec>(y + (b + 1) * C + c, v);
    store_floats<kVec>(y + (b + g.big_width) * C + c, v);
    store_floats<kVec>(y + (b + g.big_width + 1) * C + c, v);
    if (y_bf16) {
      store_bf16<kVec>(y_bf16 + b * C + c, v);
      store_bf16<kVec>(y_bf16 + (b + 1) * C + c, v);
      store_bf16<kVec>(y_bf16 + (b + g.big_width) * C + c, v);
      store_bf16<kVec>(y_bf16 + (b + g.big_width + 1) * C + c, v);
    }
  }
};

// dx (small) = sum of each 2x2 block of dy (large); with relu_y, also the ReLU
// backward of y (small): dx = 0 where y <= 0.
template <int kVec>
struct UpsampleBackward {
  HalfGrid g;
  const float* dy;
  float* dx;
  const float* relu_y;  // nullptr: plain upsample backward
  __nv_bfloat16* dx_bf16 = nullptr;

  __host__ __device__ void operator()(uint32_t item) const {
    int64_t q = 0, b = 0;
    uint32_t c = 0;
    g.place(item, kVec, q, b, c);
    const int64_t C = g.channels;
    const Floats<kVec> d0 = load_floats<kVec>(dy + b * C + c);
    const Floats<kVec> d1 = load_floats<kVec>(dy + (b + 1) * C + c);
    const Floats<kVec> d2 = load_floats<kVec>(dy + (b + g.big_width) * C + c);
    const Floats<kVec> d3 = load_floats<kVec>(dy + (b + g.big_width + 1) * C + c);
    Floats<kVec> sum;
    for (int t = 0; t < kVec; ++t) sum.v[t] = (d0.v[t] + d1.v[t]) + (d2.v[t] + d3.v[t]);
    if (relu_y) {
      const Floats<kVec> y = load_floats<kVec>(relu_y + q * C + c);
      for (int t = 0; t < kVec; ++t) sum.v[t] = y.v[t] > 0.0f ? sum.v[t] : 0.0f;
    }
    store_floats<kVec>(dx + q * C + c, sum);
    if (dx_bf16) store_bf16<kVec>(dx_bf16 + q * C + c, sum);
  }
};

}  // namespace cae_cuda
