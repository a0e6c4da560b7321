// SVM kernel matrix K = X * Y^T (LINEAR) or exp(-gamma * ||x_i - y_j||^2)
// (RBF, expanded as ||x||^2 + ||y||^2 - 2 x.y, clamped at 0 against rounding).
//
// A block of 16x16 threads computes a 64x64 tile of K, each thread a 4x4
// micro-tile, stepping through the feature dimension 16 at a time: 64x16
// slices of X and Y are staged in shared memory, transposed so that a thread
// reads its 4 rows (or columns) as one float4, and the next slices are fetched
// into registers while the current ones are used. Each output is a
// fixed-order sum: deterministic.
#pragma once

#include <cstddef>

#include "v1_reductions.cuh"

namespace v1 {

constexpr int kKernelTileThreads = 16;  // threads per block edge
constexpr int kKernelThreads = kKernelTileThreads * kKernelTileThreads;
constexpr int kKernelMicro = 4;                                 // outputs per thread edge
constexpr int kKernelTile = kKernelTileThreads * kKernelMicro;  // 64
constexpr int kKernelDepth = 16;                                // features per stage
constexpr int kKernelStageRow = kKernelTile + 4;                // 68: keeps float4 alignment
constexpr int kKernelLoadsPerThread = kKernelTile * kKernelDepth / kKernelThreads;  // 4

struct KernelMatrixArgs {
  const float* x;        // [n, d]
  const float* y;        // [m, d]
  const float* x_norms;  // [n] (RBF only)
  const float* y_norms;  // [m] (RBF only)
  float* k;              // [n, m]
  int n;
  int m;
  int d;
  int rbf;
  float gamma;
};

namespace kernel_matrix_detail {

// This thread's 4 elements of the 64 (rows) x 16 (features) slice of `rows`
// starting at row0, feature k0. Element e: row e / 16, feature e % 16, so a
// warp reads two runs of 16 consecutive floats.
__device__ __forceinline__ void fetch_slice(const float* rows, int row_count, int d, int row0,
                                            int k0, int tid, float (&regs)[kKernelLoadsPerThread]) {
#pragma unroll
  for (int l = 0; l < kKernelLoadsPerThread; ++l) {
    const int e = tid + l * kKernelThreads;
    const int r = e / kKernelDepth;
    const int f = e % kKernelDepth;
    const int row = row0 + r;
    const int feature = k0 + f;
    regs[l] = (row < row_count && feature < d)
                  ? __ldg(rows + static_cast<size_t>(row) * d + feature)
                  : 0.0f;
  }
}

// Stores the slice transposed: stage[feature][row].
__device__ __forceinline__ void store_slice(const float (&regs)[kKernelLoadsPerThread], int tid,
                                            float (*stage)[kKernelStageRow]) {
#pragma unroll
  for (int l = 0; l < kKernelLoadsPerThread; ++l) {
    const int e = tid + l * kKernelThreads;
    stage[e % kKernelDepth][e / kKernelDepth] = regs[l];
  }
}

}  // namespace kernel_matrix_detail

// Grid: (ceil(m/64), ceil(n/64)); block (16, 16).
__global__ void __launch_bounds__(kKernelThreads) kernel_matrix_kernel(KernelMatrixArgs a) {
  using namespace kernel_matrix_detail;
  __shared__ __align__(16) float s_x[kKernelDepth][kKernelStageRow];
  __shared__ __align__(16) float s_y[kKernelDepth][kKernelStageRow];

  const int tx = threadIdx.x;
  const int ty = threadIdx.y;
  const int tid = ty * kKernelTileThreads + tx;
  const int row0 = blockIdx.y * kKernelTile;
  const int col0 = blockIdx.x * kKernelTile;

  float acc[kKernelMicro][kKernelMicro];
#pragma unroll
  for (int i = 0; i < kKernelMicro; ++i) {
#pragma unroll
    for (int j = 0; j < kKernelMicro; ++j) acc[i][j] = 0.0f;
  }

  float x_regs[kKernelLoadsPerThread];
  float y_regs[kKernelLoadsPerThread];
  fetch_slice(a.x, a.n, a.d, row0, 0, tid, x_regs);
  fetch_slice(a.y, a.m, a.d, col0, 0, tid, y_regs);

  for (int k0 = 0; k0 < a.d; k0 += kKernelDepth) {
    __syncthreads();  // everyone has finished reading the previous slices
    store_slice(x_regs, tid, s_x);
    store_slice(y_regs, tid, s_y);
    __syncthreads();  // the slices are complete
    if (k0 + kKernelDepth < a.d) {
      fetch_slice(a.x, a.n, a.d, row0, k0 + kKernelDepth, tid, x_regs);
      fetch_slice(a.y, a.m, a.d, col0, k0 + kKernelDepth, tid, y_regs);
    }
#pragma unroll
    for (int f = 0; f < kKernelDepth; ++f) {
      const float4 xv = *reinterpret_cast<const float4*>(&s_x[f][ty * kKernelMicro]);
      const float4 yv = *reinterpret_cast<const float4*>(&s_y[f][tx * kKernelMicro]);
      const float xs[kKernelMicro] = {xv.x, xv.y, xv.z, xv.w};
      const float ys[kKernelMicro] = {yv.x, yv.y, yv.z, yv.w};
#pragma unroll
      for (int i = 0; i < kKernelMicro; ++i) {
#pragma unroll
        for (int j = 0; j < kKernelMicro; ++j) acc[i][j] = fmaf(xs[i], ys[j], acc[i][j]);
      }
    }
  }

#pragma unroll
  for (int i = 0; i < kKernelMicro; ++i) {
    const int row = row0 + ty * kKernelMicro + i;
    if (row >= a.n) continue;
    float* out = a.k + static_cast<size_t>(row) * a.m;
#pragma unroll
    for (int j = 0; j < kKernelMicro; ++j) {
      const int col = col0 + tx * kKernelMicro + j;
      if (col >= a.m) continue;
      float value = acc[i][j];
      if (a.rbf) {
        const float distance2 = fmaxf(a.x_norms[row] + a.y_norms[col] - 2.0f * value, 0.0f);
        value = expf(-a.gamma * distance2);
      }
      out[col] = value;
    }
  }
}

constexpr int kRowNormThreads = 256;
constexpr int kRowNormRowsPerBlock = kRowNormThreads / kWarpSize;

// norms[r] = sum_k rows[r, k]^2, one warp per row (fixed-order shuffle tree).
__global__ void __launch_bounds__(kRowNormThreads)
    row_norms_kernel(const float* rows, int row_count, int d, float* norms) {
  const int lane = threadIdx.x % kWarpSize;
  const int row = blockIdx.x * kRowNormRowsPerBlock + threadIdx.x / kWarpSize;
  if (row >= row_count) return;  // whole warps leave together
  const float* r = rows + static_cast<size_t>(row) * d;
  float sum = 0.0f;
  for (int k = lane; k < d; k += kWarpSize) sum = fmaf(r[k], r[k], sum);
  sum = warp_sum(sum);
  if (lane == 0) norms[row] = sum;
}

}  // namespace v1
