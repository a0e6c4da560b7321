// Memory-bound layer kernels: ReLU, 2x2 max-pool and 2x nearest upsample,
// forward and backward. Grid-stride loops; vector loads where the layout
// guarantees alignment (tensors start 256-byte aligned; pooled and upsampled
// rows have even lengths).
#pragma once

#include <cstdint>

namespace v1 {

constexpr unsigned kElementwiseThreads = 256;

__device__ __forceinline__ int64_t first_index() {
  return static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
}
__device__ __forceinline__ int64_t grid_stride() {
  return static_cast<int64_t>(gridDim.x) * blockDim.x;
}

// y = max(x, 0). y may be x (each element is read before it is written, by the
// same thread). Four elements per iteration, then the tail.
__global__ void relu_forward_kernel(const float* x, float* y, int64_t count) {
  const int64_t quads = count / 4;
  const float4* x4 = reinterpret_cast<const float4*>(x);
  float4* y4 = reinterpret_cast<float4*>(y);
  for (int64_t i = first_index(); i < quads; i += grid_stride()) {
    float4 v = x4[i];
    v.x = fmaxf(v.x, 0.0f);
    v.y = fmaxf(v.y, 0.0f);
    v.z = fmaxf(v.z, 0.0f);
    v.w = fmaxf(v.w, 0.0f);
    y4[i] = v;
  }
  for (int64_t i = quads * 4 + first_index(); i < count; i += grid_stride()) {
    y[i] = fmaxf(x[i], 0.0f);
  }
}

// dx = dy where y > 0, else 0. dx may be dy.
__global__ void relu_backward_kernel(const float* y, const float* dy, float* dx, int64_t count) {
  const int64_t quads = count / 4;
  const float4* y4 = reinterpret_cast<const float4*>(y);
  const float4* dy4 = reinterpret_cast<const float4*>(dy);
  float4* dx4 = reinterpret_cast<float4*>(dx);
  for (int64_t i = first_index(); i < quads; i += grid_stride()) {
    const float4 out = y4[i];
    const float4 g = dy4[i];
    float4 r;
    r.x = out.x > 0.0f ? g.x : 0.0f;
    r.y = out.y > 0.0f ? g.y : 0.0f;
    r.z = out.z > 0.0f ? g.z : 0.0f;
    r.w = out.w > 0.0f ? g.w : 0.0f;
    dx4[i] = r;
  }
  for (int64_t i = quads * 4 + first_index(); i < count; i += grid_stride()) {
    dx[i] = y[i] > 0.0f ? dy[i] : 0.0f;
  }
}

// Index (0..3, row-major) of the first element of a 2x2 window equal to its
// maximum: strict comparisons keep the earliest of equal values. Forward and
// backward both use it, so they always agree.
__device__ __forceinline__ int window_argmax(float2 top, float2 bottom, float* max_out) {
  float m = top.x;
  int index = 0;
  if (top.y > m) {
    m = top.y;
    index = 1;
  }
  if (bottom.x > m) {
    m = bottom.x;
    index = 2;
  }
  if (bottom.y > m) {
    m = bottom.y;
    index = 3;
  }
  *max_out = m;
  return index;
}

// One thread per window. Output row `row` of the flattened [N*C*H/2] rows
// reads input rows 2*row and 2*row + 1 of the flattened [N*C*H] rows.
// x rows have `width` (even) floats, windows start at even columns: float2 reads.
__global__ void maxpool2x2_forward_kernel(const float* x, float* y, int64_t windows,
                                          int64_t width) {
  const int64_t half_width = width / 2;
  for (int64_t k = first_index(); k < windows; k += grid_stride()) {
    const int64_t row = k / half_width;
    const int64_t col = k - row * half_width;
    const float* top = x + 2 * row * width + 2 * col;
    float m;
    window_argmax(*reinterpret_cast<const float2*>(top),
                  *reinterpret_cast<const float2*>(top + width), &m);
    y[k] = m;
  }
}

__global__ void maxpool2x2_backward_kernel(const float* x, const float* dy, float* dx,
                                           int64_t windows, int64_t width) {
  const int64_t half_width = width / 2;
  for (int64_t k = first_index(); k < windows; k += grid_stride()) {
    const int64_t row = k / half_width;
    const int64_t col = k - row * half_width;
    const int64_t offset = 2 * row * width + 2 * col;
    float m;
    const int index = window_argmax(*reinterpret_cast<const float2*>(x + offset),
                                    *reinterpret_cast<const float2*>(x + offset + width), &m);
    const float g = dy[k];
    *reinterpret_cast<float2*>(dx + offset) =
        make_float2(index == 0 ? g : 0.0f, index == 1 ? g : 0.0f);
    *reinterpret_cast<float2*>(dx + offset + width) =
        make_float2(index == 2 ? g : 0.0f, index == 3 ? g : 0.0f);
  }
}

// One thread per input element x[row, col] of the flattened [N*C*H, W] rows;
// it writes the 2x2 block at rows 2*row, 2*row + 1 of the [N*C*2H, 2W] output.
__global__ void upsample2x_forward_kernel(const float* x, float* y, int64_t count, int64_t width) {
  for (int64_t k = first_index(); k < count; k += grid_stride()) {
    const int64_t row = k / width;
    const int64_t col = k - row * width;
    const float v = x[k];
    float* top = y + 2 * row * (2 * width) + 2 * col;
    *reinterpret_cast<float2*>(top) = make_float2(v, v);
    *reinterpret_cast<float2*>(top + 2 * width) = make_float2(v, v);
  }
}

// dx[row, col] = sum of the 2x2 block of dy it was copied to, in a fixed order.
__global__ void upsample2x_backward_kernel(const float* dy, float* dx, int64_t count,
                                           int64_t width) {
  for (int64_t k = first_index(); k < count; k += grid_stride()) {
    const int64_t row = k / width;
    const int64_t col = k - row * width;
    const float* top = dy + 2 * row * (2 * width) + 2 * col;
    const float2 a = *reinterpret_cast<const float2*>(top);
    const float2 b = *reinterpret_cast<const float2*>(top + 2 * width);
    dx[k] = (a.x + a.y) + (b.x + b.y);
  }
}

}  // namespace v1
