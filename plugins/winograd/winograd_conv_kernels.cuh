// The tile kernels of the Winograd convolution. One thread per (channel, tile)
// or per (o, c) filter; grid-stride loops with 64-bit indices, so any grid
// covers any size. Transformed data are stored point-major, [36][rows][P], so
// that the 36 GEMMs are one strided batch and neighbouring threads (adjacent
// tiles p) write adjacent addresses.
#pragma once

#include <cstdint>

#include "winograd_tile_io.hpp"

namespace cae_winograd {

// Where the tiles of one pass lie: images [first_image, first_image + images)
// of a batch of [*, channels, height, width] images.
struct TileGrid {
  int64_t height, width;
  int64_t tiles_w, tiles_per_image;
  int64_t first_image, images;
  __host__ __device__ int64_t tiles() const { return images * tiles_per_image; }
};

// v[xi][c][p] = (B^T d B)[xi] of the 6x6 input patch of tile p (zero padding).
__global__ void input_transform_kernel(const float* __restrict__ in, float* __restrict__ v,
                                       int64_t channels, TileGrid g) {
  const int64_t P = g.tiles(), total = channels * P;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < total;
       i += int64_t(gridDim.x) * blockDim.x) {
    const int64_t p = i % P, c = i / P;
    const int64_t n = g.first_image + p / g.tiles_per_image, t = p % g.tiles_per_image;
    float d[6][6];
    gather_input_tile(in + (n * channels + c) * g.height * g.width, g.height, g.width,
                      t / g.tiles_w, t % g.tiles_w, d);
    float t6[6][6];
    input_transform(d, t6);
WINOGRAD_UNROLL
    for (int r = 0; r < 6; ++r)
WINOGRAD_UNROLL
      for (int s = 0; s < 6; ++s) v[(r * 6 + s) * total + c * P + p] = t6[r][s];
  }
}

// out[n][o][4x4 tile p] = A^T m A (+ bias, ReLU), dropping pixels past the edge.
__global__ void output_transform_kernel(const float* __restrict__ m, const float* __restrict__ bias,
                                        float* __restrict__ out, int64_t channels, TileGrid g,
                                        bool relu) {
  const int64_t P = g.tiles(), total = channels * P;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < total;
       i += int64_t(gridDim.x) * blockDim.x) {
    const int64_t p = i % P, o = i / P;
    const int64_t n = g.first_image + p / g.tiles_per_image, t = p % g.tiles_per_image;
    float t6[6][6];
WINOGRAD_UNROLL
    for (int r = 0; r < 6; ++r)
WINOGRAD_UNROLL
      for (int s = 0; s < 6; ++s) t6[r][s] = m[(r * 6 + s) * total + o * P + p];
    float y4[4][4];
    output_transform(t6, y4);
    scatter_output_tile(y4, bias ? bias[o] : 0.0f, relu,
                        out + (n * channels + o) * g.height * g.width, g.height, g.width,
                        t / g.tiles_w, t % g.tiles_w);
  }
}

// e[xi][o][p] = (A dy A^T)[xi] of the 4x4 output-gradient tile p (zeros past
// the edge: those outputs do not exist).
__global__ void output_gradient_transform_kernel(const float* __restrict__ dy,
                                                 float* __restrict__ e, int64_t channels,
                                                 TileGrid g) {
  const int64_t P = g.tiles(), total = channels * P;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < total;
       i += int64_t(gridDim.x) * blockDim.x) {
    const int64_t p = i % P, o = i / P;
    const int64_t n = g.first_image + p / g.tiles_per_image, t = p % g.tiles_per_image;
    float d4[4][4];
    gather_output_tile(dy + (n * channels + o) * g.height * g.width, g.height, g.width,
                       t / g.tiles_w, t % g.tiles_w, d4);
    float t6[6][6];
    output_gradient_transform(d4, t6);
WINOGRAD_UNROLL
    for (int r = 0; r < 6; ++r)
WINOGRAD_UNROLL
      for (int s = 0; s < 6; ++s) e[(r * 6 + s) * total + o * P + p] = t6[r][s];
  }
}

// Forward: u[xi][o][c] = (G w[o][c] G^T)[xi].
// Data gradient (flipped): u[xi][c][o] = (G rot180(w[o][c]) G^T)[xi], the
// filter of dx = conv(dy, w') with w'[c][o] = w[o][c] rotated by 180 degrees.
__global__ void filter_transform_kernel(const float* __restrict__ w, float* __restrict__ u,
                                        int64_t out_channels, int64_t in_channels, bool flipped) {
  const int64_t total = out_channels * in_channels;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < total;
       i += int64_t(gridDim.x) * blockDim.x) {
    const int64_t o = i / in_channels, c = i % in_channels;
    float g3[3][3];
    load_filter(w + i * kTaps * kTaps, flipped, g3);
    float t6[6][6];
    filter_transform(g3, t6);
    const int64_t at = flipped ? c * out_channels + o : o * in_channels + c;
WINOGRAD_UNROLL
    for (int r = 0; r < 6; ++r)
WINOGRAD_UNROLL
      for (int s = 0; s < 6; ++s) u[(r * 6 + s) * total + at] = t6[r][s];
  }
}

// dw[o][c] = G^T du[.][o][c] G: the weight gradient back from the Winograd domain.
__global__ void filter_gradient_kernel(const float* __restrict__ du, float* __restrict__ dw,
                                       int64_t out_channels, int64_t in_channels) {
  const int64_t total = out_channels * in_channels;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < total;
       i += int64_t(gridDim.x) * blockDim.x) {
    float t6[6][6];
WINOGRAD_UNROLL
    for (int r = 0; r < 6; ++r)
WINOGRAD_UNROLL
      for (int s = 0; s < 6; ++s) t6[r][s] = du[(r * 6 + s) * total + i];
    float g3[3][3];
    filter_gradient_transform(t6, g3);
WINOGRAD_UNROLL
    for (int r = 0; r < 3; ++r)
WINOGRAD_UNROLL
      for (int s = 0; s < 3; ++s) dw[i * 9 + r * 3 + s] = g3[r][s];
  }
}

// db[o] = sum over images and pixels of dy[n][o][.]: one block per channel,
// a fixed per-thread order and a fixed tree, so the result is deterministic.
constexpr int kBiasThreads = 256;
__global__ void bias_gradient_kernel(const float* __restrict__ dy, float* __restrict__ db,
                                     int64_t images, int64_t channels, int64_t pixels) {
  __shared__ double partial[kBiasThreads];
  for (int64_t o = blockIdx.x; o < channels; o += gridDim.x) {
    double sum = 0.0;
    const int64_t total = images * pixels;
    for (int64_t i = threadIdx.x; i < total; i += kBiasThreads)
      sum += dy[((i / pixels) * channels + o) * pixels + i % pixels];
    partial[threadIdx.x] = sum;
    __syncthreads();
    for (int half = kBiasThreads / 2; half > 0; half /= 2) {
      if (threadIdx.x < half) partial[threadIdx.x] += partial[threadIdx.x + half];
      __syncthreads();
    }
    if (threadIdx.x == 0) db[o] = static_cast<float>(partial[0]);
    __syncthreads();
  }
}

}  // namespace cae_winograd
