// Element-wise bodies: the conv epilogue (bias + optional ReLU, fused in one
// pass) and the ReLU forward/backward. Flat bodies take 4 elements per item
// as one float4 and finish a count that is not a multiple of 4 with scalars.
#pragma once

#include <cstdint>

#include "v2_vector_access.cuh"

namespace cae_v2 {

__host__ __device__ inline float relu(float v) { return v > 0.0f ? v : 0.0f; }

// Items of a flat body: quads, the last one possibly partial.
inline int64_t flat_quad_items(int64_t count) { return (count + 3) / 4; }

// y[r][c] = act(y[r][c] + bias[r]) for y [rows][cols] (in place, after the GEMM).
struct BiasActivation {
  float* y;
  const float* bias;
  int64_t rows, cols;
  bool relu_after;

  __host__ __device__ bool by_quads() const { return cols % 4 == 0; }
  int64_t largest_offset() const { return rows * cols; }
  int64_t work_items() const { return rows * cols / (by_quads() ? 4 : 1); }

  template <class I>
  __host__ __device__ void operator()(I item) const {
    const I per = by_quads() ? 4 : 1;
    const I items_per_row = static_cast<I>(cols) / per;
    const I row = item / items_per_row;
    const float b = bias[row];
    float* p = y + item * per;  // rows are contiguous: item * per is the flat offset
    if (by_quads()) {
      float4 v = load4(p);
      v.x = apply(v.x + b);
      v.y = apply(v.y + b);
      v.z = apply(v.z + b);
      v.w = apply(v.w + b);
      store4(p, v);
    } else {
      *p = apply(*p + b);
    }
  }
  __host__ __device__ float apply(float v) const { return relu_after ? relu(v) : v; }
};

// y = max(x, 0); y may be x.
struct ReluForward {
  const float* x;
  float* y;
  int64_t count;

  int64_t largest_offset() const { return count; }
  int64_t work_items() const { return flat_quad_items(count); }

  template <class I>
  __host__ __device__ void operator()(I item) const {
    const I e = item * 4, n = static_cast<I>(count);
    if (e + 4 <= n) {
      float4 v = load4(x + e);
      store4(y + e, make_float4(relu(v.x), relu(v.y), relu(v.z), relu(v.w)));
    } else {
      for (I i = e; i < n; ++i) y[i] = relu(x[i]);
    }
  }
};

// dx = dy where y > 0, else 0; dx may be dy.
struct ReluBackward {
  const float* y;
  const float* dy;
  float* dx;
  int64_t count;

  int64_t largest_offset() const { return count; }
  int64_t work_items() const { return flat_quad_items(count); }

  __host__ __device__ static float pass(float out, float grad) { return out > 0.0f ? grad : 0.0f; }

  template <class I>
  __host__ __device__ void operator()(I item) const {
    const I e = item * 4, n = static_cast<I>(count);
    if (e + 4 <= n) {
      const float4 out = load4(y + e), grad = load4(dy + e);
      store4(dx + e, make_float4(pass(out.x, grad.x), pass(out.y, grad.y), pass(out.z, grad.z),
                                 pass(out.w, grad.w)));
    } else {
      for (I i = e; i < n; ++i) dx[i] = pass(y[i], dy[i]);
    }
  }
};

}  // namespace cae_v2
