// The RBF epilogue of the kernel-matrix op: the GEMM leaves the dot products
// <x_i, y_j> in K; with the squared row norms computed once per call,
//   K[i][j] = exp(-gamma * max(|x_i|^2 + |y_j|^2 - 2 <x_i, y_j>, 0)).
#pragma once

#include <cmath>
#include <cstdint>

#include "v2_vector_access.cuh"

namespace cae_v2 {

struct RbfFromDots {
  float* k;              // [rows][cols], dot products in, kernel values out
  const float* x_norms;  // [rows]
  const float* y_norms;  // [cols]
  int64_t rows, cols;
  float gamma;
  bool same_matrix;  // x is y: the diagonal distance is exactly 0

  __host__ __device__ bool by_quads() const { return cols % 4 == 0; }
  int64_t largest_offset() const { return rows * cols; }
  int64_t work_items() const { return rows * cols / (by_quads() ? 4 : 1); }

  template <class I>
  __host__ __device__ float value(I row, I col, float dot) const {
    float distance = x_norms[row] + y_norms[col] - 2.0f * dot;
    // Rounding can make the distance of (nearly) equal rows slightly negative.
    distance = distance > 0.0f ? distance : 0.0f;
    if (same_matrix && row == col) distance = 0.0f;
    return expf(-gamma * distance);
  }

  template <class I>
  __host__ __device__ void operator()(I item) const {
    const I per = by_quads() ? 4 : 1;
    const I items_per_row = static_cast<I>(cols) / per;
    const I row = item / items_per_row;
    const I col = (item - row * items_per_row) * per;
    float* p = k + item * per;  // = row * cols + col
    if (by_quads()) {
      float4 d = load4(p);
      d.x = value(row, col, d.x);
      d.y = value(row, col + 1, d.y);
      d.z = value(row, col + 2, d.z);
      d.w = value(row, col + 3, d.w);
      store4(p, d);
    } else {
      *p = value(row, col, *p);
    }
  }
};

}  // namespace cae_v2
