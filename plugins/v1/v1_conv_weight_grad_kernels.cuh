// Kernels of conv2d_backward's dw and db (dx reuses the tiled convolution).
//
// dw[o,c,kh,kw] = sum over n, y, x of dy[n,o,y,x] * x[n,c,y+kh-1,x+kw-1]
// is a reduction over N*H*W for each of O*C*9 outputs. One block owns a 16x16
// square of (o, c) pairs, one pair (9 tap accumulators) per thread, and walks
// 16x16 spatial tiles of its share of the batch. Per tile it stages dy for its
// 16 output channels and the 18x18 halo tile of x for its 16 input channels in
// shared memory; a thread then slides along each row with float4 reads, doing
// 9 multiply-adds per dy value. When the (o, c) squares alone are too few
// blocks to fill the GPU, the batch is split over gridDim.z: each split writes
// its partial dw and a second pass adds the splits in a fixed order. db sums
// dy per channel the same way: per-block shuffle-tree partials, then a fixed
// order pass. No atomics anywhere, so results are bit-identical run to run.
#pragma once

#include <cstddef>
#include <cstdint>

#include "v1_conv_tile_kernel.cuh"
#include "v1_reductions.cuh"

namespace v1 {

constexpr int kWeightGradSquare = 16;  // (o, c) square per block; also the spatial tile edge
constexpr int kWeightGradThreads = kWeightGradSquare * kWeightGradSquare;
// x halo tile rows hold columns -1..16 at 0..17; 2 pad columns make the row
// length a multiple of 4 so every row is read as five float4.
constexpr int kWeightGradRowStride = 20;
// Channel planes 364 words apart (>= 18 * 20, and 364 = 12 mod 32): the 8
// channels read by one quarter-warp's float4 loads land in distinct banks.
constexpr int kWeightGradPlaneStride = 364;
constexpr int kWeightGradTilePixels = kWeightGradSquare * kWeightGradSquare;  // dy tile
constexpr int kWeightGradHaloElems = kWeightGradSquare * kHaloTilePixels;     // x tiles, dense

struct WeightGradArgs {
  const float* x;   // [N, C, H, W]
  const float* dy;  // [N, O, H, W]
  float* partial;   // [splits, O, C, 3, 3]; dw itself when there is one split
  int batch;
  int in_channels;   // C
  int out_channels;  // O
  int height;
  int width;
  int images_per_split;
};

// Grid: (ceil(C/16), ceil(O/16), splits); block (16, 16).
__global__ void __launch_bounds__(kWeightGradThreads) conv_weight_grad_kernel(WeightGradArgs a) {
  __shared__ __align__(16) float s_dy[kWeightGradSquare * kWeightGradTilePixels];
  __shared__ __align__(16) float s_x[kWeightGradSquare * kWeightGradPlaneStride];

  const int tx = threadIdx.x;  // input channel of this thread's pair, within the square
  const int ty = threadIdx.y;  // output channel of this thread's pair, within the square
  const int tid = ty * kWeightGradSquare + tx;
  const int c0 = blockIdx.x * kWeightGradSquare;
  const int o0 = blockIdx.y * kWeightGradSquare;
  const int split = blockIdx.z;
  const int n_begin = split * a.images_per_split;
  const int n_end = a.batch - n_begin < a.images_per_split ? a.batch : n_begin + a.images_per_split;
  const int tiles_x = (a.width + kWeightGradSquare - 1) / kWeightGradSquare;
  const int tiles_y = (a.height + kWeightGradSquare - 1) / kWeightGradSquare;
  const size_t plane = static_cast<size_t>(a.height) * a.width;

  // The pad columns (and plane tails) are never staged: zero them once so
  // every float4 read returns initialised values. The first barrier of the
  // loop orders this before the staging writes.
  for (int e = tid; e < kWeightGradSquare * kWeightGradPlaneStride; e += kWeightGradThreads) {
    s_x[e] = 0.0f;
  }

  float acc[kConvTaps];
#pragma unroll
  for (int t = 0; t < kConvTaps; ++t) acc[t] = 0.0f;

  const float* dy_plane = s_dy + ty * kWeightGradTilePixels;
  const float* x_plane = s_x + tx * kWeightGradPlaneStride;

  for (int n = n_begin; n < n_end; ++n) {
    const float* dy_image = a.dy + static_cast<size_t>(n) * a.out_channels * plane;
    const float* x_image = a.x + static_cast<size_t>(n) * a.in_channels * plane;
    for (int tile = 0; tile < tiles_x * tiles_y; ++tile) {
      const int y0 = (tile / tiles_x) * kWeightGradSquare;
      const int x0 = (tile % tiles_x) * kWeightGradSquare;
      __syncthreads();  // everyone has finished reading the previous tile

      // dy: [16 channels][16 rows][16 cols]; thread tid stages pixel (ty, tx)
      // of every channel, so a warp reads two 16-float row segments.
      {
        const int gy = y0 + ty;
        const int gx = x0 + tx;
        const bool inside = gy < a.height && gx < a.width;
        const size_t offset = static_cast<size_t>(gy) * a.width + gx;
#pragma unroll 4
        for (int oc = 0; oc < kWeightGradSquare; ++oc) {
          const int o = o0 + oc;
          float value = 0.0f;
          if (inside && o < a.out_channels) value = __ldg(dy_image + o * plane + offset);
          s_dy[oc * kWeightGradTilePixels + tid] = value;
        }
      }
      // x: [16 channels][18 rows][18 cols] halo tiles, zero outside the image.
      for (int e = tid; e < kWeightGradHaloElems; e += kWeightGradThreads) {
        const int cc = e / kHaloTilePixels;
        const int rest = e - cc * kHaloTilePixels;
        const int r = rest / kHaloTile;
        const int col = rest - r * kHaloTile;
        const int c = c0 + cc;
        const int gy = y0 - 1 + r;
        const int gx = x0 - 1 + col;
        float value = 0.0f;
        if (c < a.in_channels && gy >= 0 && gy < a.height && gx >= 0 && gx < a.width) {
          value = __ldg(x_image + c * plane + static_cast<size_t>(gy) * a.width + gx);
        }
        s_x[cc * kWeightGradPlaneStride + r * kWeightGradRowStride + col] = value;
      }
      __syncthreads();  // the tile is staged

      // Rows of the tile below the image hold zeros in dy: skip them.
      const int rows = a.height - y0 < kWeightGradSquare ? a.height - y0 : kWeightGradSquare;
      for (int i = 0; i < rows; ++i) {
        float d[kWeightGradSquare];
        const float4* dy_row = reinterpret_cast<const float4*>(dy_plane + i * kWeightGradSquare);
#pragma unroll
        for (int q = 0; q < kWeightGradSquare / 4; ++q) {
          const float4 v = dy_row[q];
          d[4 * q + 0] = v.x;
          d[4 * q + 1] = v.y;
          d[4 * q + 2] = v.z;
          d[4 * q + 3] = v.w;
        }
#pragma unroll
        for (int kh = 0; kh < kConvKernel; ++kh) {
          // x row y0 + i + kh - 1, columns x0 - 1 .. x0 + 18 (the last two are padding).
          float xr[kWeightGradRowStride];
          const float4* x_row =
              reinterpret_cast<const float4*>(x_plane + (i + kh) * kWeightGradRowStride);
#pragma unroll
          for (int q = 0; q < kWeightGradRowStride / 4; ++q) {
            const float4 v = x_row[q];
            xr[4 * q + 0] = v.x;
            xr[4 * q + 1] = v.y;
            xr[4 * q + 2] = v.z;
            xr[4 * q + 3] = v.w;
          }
#pragma unroll
          for (int j = 0; j < kWeightGradSquare; ++j) {
#pragma unroll
            for (int kw = 0; kw < kConvKernel; ++kw) {
              acc[kh * kConvKernel + kw] = fmaf(d[j], xr[j + kw], acc[kh * kConvKernel + kw]);
            }
          }
        }
      }
    }
  }

  const int o = o0 + ty;
  const int c = c0 + tx;
  if (o < a.out_channels && c < a.in_channels) {
    float* out =
        a.partial +
        ((static_cast<size_t>(split) * a.out_channels + o) * a.in_channels + c) * kConvTaps;
#pragma unroll
    for (int t = 0; t < kConvTaps; ++t) out[t] = acc[t];
  }
}

// out[i] = partial[0][i] + partial[1][i] + ... in that order (one thread per i).
__global__ void sum_splits_kernel(const float* partial, float* out, int64_t count, int splits) {
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += stride) {
    float sum = 0.0f;
    for (int s = 0; s < splits; ++s) sum += partial[s * count + i];
    out[i] = sum;
  }
}

constexpr int kBiasGradThreads = 256;

// partial[o * gridDim.y + part] = sum of dy[n, o, :, :] over the images of
// `part`. Grid: (O, parts); block kBiasGradThreads.
__global__ void __launch_bounds__(kBiasGradThreads)
    bias_grad_partial_kernel(const float* dy, float* partial, int batch, int channels, int plane,
                             int images_per_part) {
  __shared__ float warp_totals[kBiasGradThreads / kWarpSize];
  const int o = blockIdx.x;
  const int part = blockIdx.y;
  const int n_begin = part * images_per_part;
  const int n_end = batch - n_begin < images_per_part ? batch : n_begin + images_per_part;
  float sum = 0.0f;
  for (int n = n_begin; n < n_end; ++n) {
    const float* channel = dy + (static_cast<size_t>(n) * channels + o) * plane;
    for (int i = threadIdx.x; i < plane; i += kBiasGradThreads) sum += channel[i];
  }
  sum = block_sum<kBiasGradThreads>(sum, warp_totals);
  if (threadIdx.x == 0) partial[static_cast<size_t>(o) * gridDim.y + part] = sum;
}

// db[o] = partial[o][0] + partial[o][1] + ... in that order.
__global__ void bias_grad_finalize_kernel(const float* partial, float* db, int channels,
                                          int parts) {
  const int o = blockIdx.x * blockDim.x + threadIdx.x;
  if (o >= channels) return;
  float sum = 0.0f;
  for (int p = 0; p < parts; ++p) sum += partial[static_cast<size_t>(o) * parts + p];
  db[o] = sum;
}

}  // namespace v1
