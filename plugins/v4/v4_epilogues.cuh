// Where v4's GEMM tiles go. store(row, col, v0, v1) receives D[row][col] and
// D[row][col + 1] (col is even); rows and columns past the matrix are dropped.
//
// A wgmma accumulator gives each thread two neighbouring columns, so a warp's
// store covers 8 rows x 8 columns. Written as two 4-byte stores, each touches
// every 32-byte sector half-full (ncu reports 50% excess store sectors
// in every epilogue); one 8-byte store fills them. The pair is written as a
// float2 when both columns exist and the address is 8-byte aligned (always,
// for an even column count and an aligned base); otherwise element by element.
#pragma once

#include <cstdint>

#include "kernel_queries.cuh"

namespace cae_v4 {

__device__ inline bool aligned_for_pair(const float* at) {
  return cae_plugin::cuda::aligned_to(at, sizeof(float2));
}

// Convolution output y[pixel][o] with the bias added and the ReLU fused.
struct BiasReluStore {
  float* y;
  const float* bias;
  int rows, cols;
  bool relu;
  __device__ float finish(float v, float b) const {
    v += b;
    return relu ? fmaxf(v, 0.0f) : v;
  }
  __device__ void store(int r, int c, float v0, float v1) const {
    if (r >= rows) return;
    float* at = y + int64_t(r) * cols + c;
    if (c + 1 < cols && aligned_for_pair(at) && aligned_for_pair(bias + c)) {
      const float2 b = *reinterpret_cast<const float2*>(bias + c);
      *reinterpret_cast<float2*>(at) = make_float2(finish(v0, b.x), finish(v1, b.y));
      return;
    }
    if (c < cols) at[0] = finish(v0, bias[c]);
    if (c + 1 < cols) at[1] = finish(v1, bias[c + 1]);
  }
};

// A plain row-major matrix [rows][cols]; blockIdx.z picks one of several
// (split-K partial sums, `slice` floats apart).
struct MatrixStore {
  float* out;
  int rows, cols;
  int64_t slice;
  __device__ void store(int r, int c, float v0, float v1) const {
    if (r >= rows) return;
    float* at = out + int64_t(blockIdx.z) * slice + int64_t(r) * cols + c;
    if (c + 1 < cols && aligned_for_pair(at)) {
      *reinterpret_cast<float2*>(at) = make_float2(v0, v1);
      return;
    }
    if (c < cols) at[0] = v0;
    if (c + 1 < cols) at[1] = v1;
  }
};

// The fused last layer's forward as a GEMM over its small input
// (v4_upsampled_conv.hpp): D[q][n], q a small pixel (image, i, j) and
// n = o * 4 + u * 2 + v, is output channel o of the upsampled pixel
// (2i + u, 2j + v); y [N][2h][2w][O] (NHWC) gets it with the bias added.
// Columns past 4 * O (the tile's padding) are dropped.
struct PixelShuffleStore {
  float* y;
  const float* bias;
  int rows;     // small pixels, N * h * w
  int h, w, O;  // the small input's size; output channels
  __device__ void put(int r, int c, float value) const {
    if (c >= 4 * O) return;
    const int o = c >> 2, u = (c >> 1) & 1, v = c & 1;
    const int j = r % w, rest = r / w;
    const int i = rest % h, image = rest / h;
    const int64_t pixel = (int64_t(image) * 2 * h + 2 * i + u) * (2 * w) + 2 * j + v;
    y[pixel * O + o] = value + bias[o];
  }
  __device__ void store(int r, int c, float v0, float v1) const {
    if (r >= rows) return;
    put(r, c, v0);
    put(r, c + 1, v1);
  }
};

}  // namespace cae_v4
