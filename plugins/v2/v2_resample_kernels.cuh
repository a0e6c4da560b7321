// 2x2 max-pool and nearest 2x upsample, forward and backward. Both work per
// plane: each (channel, image) pair is one height x width plane, and a tensor
// and its pooled/upsampled partner list their planes in the same order
// whatever that order is (v2 stores channel-major, [C][N][H][W]).
#pragma once

#include <cstdint>

#include "v2_vector_access.cuh"

namespace cae_v2 {

// The ABI's tie rule: the FIRST of (0,0), (0,1), (1,0), (1,1) that equals the
// window's max. Forward and backward both use it, so they always agree.
__host__ __device__ inline int first_max_of_window(float a, float b, float c, float d) {
  int best = 0;
  float v = a;
  if (b > v) {
    best = 1;
    v = b;
  }
  if (c > v) {
    best = 2;
    v = c;
  }
  if (d > v) best = 3;
  return best;
}

// Geometry of the large side (pool input, upsample output is 2x the input).
struct PoolGeometry {
  int64_t planes, height, width;  // of the pooled (large) tensor

  // Two adjacent windows (a float4 of each input row) per item when possible.
  __host__ __device__ bool by_pairs() const { return width % 4 == 0; }
  int64_t large_count() const { return planes * height * width; }
  int64_t small_count() const { return large_count() / 4; }
};

// First output element of an item and the top-left input element of its window.
template <class I>
struct PoolItem {
  I out, top;
};

template <class I>
__host__ __device__ inline PoolItem<I> locate_window(const PoolGeometry& g, I item) {
  const I w = static_cast<I>(g.width), out_w = w / 2, out_h = static_cast<I>(g.height) / 2;
  PoolItem<I> at;
  at.out = item * (g.by_pairs() ? 2 : 1);
  const I oj = at.out % out_w;
  const I rows = at.out / out_w;  // = plane * out_h + oi
  const I oi = rows % out_h;
  const I plane = rows / out_h;
  at.top = (plane * static_cast<I>(g.height) + 2 * oi) * w + 2 * oj;
  return at;
}

struct MaxPoolForward {
  PoolGeometry g;
  const float* x;  // [planes][height][width]
  float* y;        // [planes][height/2][width/2]

  int64_t largest_offset() const { return g.large_count(); }
  int64_t work_items() const { return g.small_count() / (g.by_pairs() ? 2 : 1); }

  template <class I>
  __host__ __device__ void operator()(I item) const {
    const PoolItem<I> at = locate_window(g, item);
    const float* top = x + at.top;
    const float* bottom = top + static_cast<I>(g.width);
    if (g.by_pairs()) {
      const float4 a = load4(top), b = load4(bottom);
      store2(y + at.out, make_float2(pick(a.x, a.y, b.x, b.y), pick(a.z, a.w, b.z, b.w)));
    } else {
      const float2 a = load2(top), b = load2(bottom);
      y[at.out] = pick(a.x, a.y, b.x, b.y);
    }
  }

  __host__ __device__ static float pick(float a, float b, float c, float d) {
    const int k = first_max_of_window(a, b, c, d);
    return k == 0 ? a : k == 1 ? b : k == 2 ? c : d;
  }
};

struct MaxPoolBackward {
  PoolGeometry g;
  const float* x;   // [planes][height][width]
  const float* dy;  // [planes][height/2][width/2]
  float* dx;        // [planes][height][width], every element written

  int64_t largest_offset() const { return g.large_count(); }
  int64_t work_items() const { return g.small_count() / (g.by_pairs() ? 2 : 1); }

  template <class I>
  __host__ __device__ void operator()(I item) const {
    const PoolItem<I> at = locate_window(g, item);
    const I w = static_cast<I>(g.width);
    if (g.by_pairs()) {
      const float4 a = load4(x + at.top), b = load4(x + at.top + w);
      const float2 grad = load2(dy + at.out);
      const int left = first_max_of_window(a.x, a.y, b.x, b.y);
      const int right = first_max_of_window(a.z, a.w, b.z, b.w);
      store4(dx + at.top, make_float4(left == 0 ? grad.x : 0.0f, left == 1 ? grad.x : 0.0f,
                                      right == 0 ? grad.y : 0.0f, right == 1 ? grad.y : 0.0f));
      store4(dx + at.top + w, make_float4(left == 2 ? grad.x : 0.0f, left == 3 ? grad.x : 0.0f,
                                          right == 2 ? grad.y : 0.0f, right == 3 ? grad.y : 0.0f));
    } else {
      const float2 a = load2(x + at.top), b = load2(x + at.top + w);
      const float grad = dy[at.out];
      const int k = first_max_of_window(a.x, a.y, b.x, b.y);
      store2(dx + at.top, make_float2(k == 0 ? grad : 0.0f, k == 1 ? grad : 0.0f));
      store2(dx + at.top + w, make_float2(k == 2 ? grad : 0.0f, k == 3 ? grad : 0.0f));
    }
  }
};

// Geometry of the small side of an upsample (its input x, its gradient dx).
struct UpsampleGeometry {
  int64_t planes, height, width;  // of the small tensor

  // Two adjacent small elements (a float4 of each large row) per item when possible.
  __host__ __device__ bool by_pairs() const { return width % 2 == 0; }
  int64_t small_count() const { return planes * height * width; }
  int64_t large_count() const { return small_count() * 4; }
};

// First small element of an item and the offset of its 2x2 block's top-left
// element in the large tensor.
template <class I>
struct UpsampleItem {
  I small, large_top;
};

template <class I>
__host__ __device__ inline UpsampleItem<I> locate_block(const UpsampleGeometry& g, I item) {
  const I w = static_cast<I>(g.width), h = static_cast<I>(g.height);
  UpsampleItem<I> at;
  at.small = item * (g.by_pairs() ? 2 : 1);
  const I j = at.small % w;
  const I rows = at.small / w;  // = plane * h + i
  // Large row of (plane, 2i) is 2 * rows; large rows are 2w long.
  at.large_top = 2 * rows * (2 * w) + 2 * j;
  return at;
}

// y[2i + a][2j + b] = x[i][j] for a, b in {0, 1}.
struct UpsampleForward {
  UpsampleGeometry g;
  const float* x;  // [planes][height][width]
  float* y;        // [planes][2 height][2 width]

  int64_t largest_offset() const { return g.large_count(); }
  int64_t work_items() const { return g.small_count() / (g.by_pairs() ? 2 : 1); }

  template <class I>
  __host__ __device__ void operator()(I item) const {
    const UpsampleItem<I> at = locate_block(g, item);
    const I large_w = 2 * static_cast<I>(g.width);
    if (g.by_pairs()) {
      const float2 v = load2(x + at.small);
      const float4 out = make_float4(v.x, v.x, v.y, v.y);
      store4(y + at.large_top, out);
      store4(y + at.large_top + large_w, out);
    } else {
      const float v = x[at.small];
      store2(y + at.large_top, make_float2(v, v));
      store2(y + at.large_top + large_w, make_float2(v, v));
    }
  }
};

// dx[i][j] = sum of dy over the 2x2 block (fixed order).
struct UpsampleBackward {
  UpsampleGeometry g;
  const float* dy;  // [planes][2 height][2 width]
  float* dx;        // [planes][height][width]

  int64_t largest_offset() const { return g.large_count(); }
  int64_t work_items() const { return g.small_count() / (g.by_pairs() ? 2 : 1); }

  template <class I>
  __host__ __device__ void operator()(I item) const {
    const UpsampleItem<I> at = locate_block(g, item);
    const I large_w = 2 * static_cast<I>(g.width);
    if (g.by_pairs()) {
      const float4 a = load4(dy + at.large_top), b = load4(dy + at.large_top + large_w);
      store2(dx + at.small, make_float2((a.x + a.y) + (b.x + b.y), (a.z + a.w) + (b.z + b.w)));
    } else {
      const float2 a = load2(dy + at.large_top), b = load2(dy + at.large_top + large_w);
      dx[at.small] = (a.x + a.y) + (b.x + b.y);
    }
  }
};

}  // namespace cae_v2
