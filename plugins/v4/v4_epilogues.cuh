// Where v4's GEMM tiles go. store(row, col, v0, v1) receives D[row][col] and
// D[row][col + 1] (col is even); rows and columns past the matrix are dropped.
#pragma once

#include <cstdint>

namespace cae_v4 {

// Convolution output y[pixel][o] with the bias added and the ReLU fused.
struct BiasReluStore {
  float* y;
  const float* bias;
  int rows, cols;
  bool relu;
  __device__ void put(int r, int c, float v) const {
    v += bias[c];
    y[int64_t(r) * cols + c] = relu ? fmaxf(v, 0.0f) : v;
  }
  __device__ void store(int r, int c, float v0, float v1) const {
    if (r >= rows) return;
    if (c < cols) put(r, c, v0);
    if (c + 1 < cols) put(r, c + 1, v1);
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
    if (c < cols) at[0] = v0;
    if (c + 1 < cols) at[1] = v1;
  }
};

}  // namespace cae_v4
