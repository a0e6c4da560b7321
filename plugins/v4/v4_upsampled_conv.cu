// The fused last layer (v4_upsampled_conv.hpp): its FP32 kernels and their
// choice per number of outputs. With edge-kernels=tensor-cores the backward
// pass runs on the tensor-core variant instead (v4_upsampled_backward_tf32.cu).
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "runtime_launch.cuh"
#include "v4_block_sums.hpp"
#include "v4_upsampled_backward_tf32.hpp"
#include "v4_upsampled_conv.hpp"
#include "v4_upsampled_geometry.cuh"

namespace cae_v4 {
namespace {

using cae_plugin::ConvDims;

using namespace upsampled_tiling;
using namespace upsampled;

// Small pixels along a row per warp: the weights each lane loads and combines
// for a channel serve this many, so the loads no longer outnumber the
// multiply-adds' share of the issue slots.
constexpr int kForwardPixels = 4;

// One warp per kForwardPixels small pixels of a row, its lanes splitting the
// C channels: per channel, the 4 x 4 combined weights of each output (one per
// phase (u, v) and small pixel of its 2x2), then the 2x2 output pixels above
// each small pixel, the lanes' partial sums added by shuffles.
template <int O>
__global__ void __launch_bounds__(kWarpsPerBlock * 32)
    upsampled_conv_forward_kernel(Geometry g, const float* __restrict__ t,
                                  const float* __restrict__ w, const float* __restrict__ b,
                                  float* __restrict__ y) {
  cae_cuda::begin_after_prior_kernels();
  constexpr int P = kForwardPixels;
  const int lane = threadIdx.x & 31;
  const int groups_per_row = (g.w + P - 1) / P;
  const int64_t groups = g.small_pixels / g.w * groups_per_row;
  const int64_t stride = int64_t(gridDim.x) * kWarpsPerBlock;
  for (int64_t q = int64_t(blockIdx.x) * kWarpsPerBlock + (threadIdx.x >> 5); q < groups;
       q += stride) {
    const int64_t small_row = q / groups_per_row;  // n * h + i
    const int j0 = int(q - small_row * groups_per_row) * P;
    const int64_t n = small_row / g.h;
    const int i = int(small_row - n * g.h);
    float acc[P][2][2][O] = {};
#pragma unroll 1
    for (int c = lane; c < g.C; c += 32) {
      // The 3 x (P + 2) small pixels around the group, zero outside: the
      // upsampled image's "same" padding, since upsampled row -1 is small row -1.
      float near[3][P + 2];
#pragma unroll
      for (int r = 0; r < 3; ++r) {
#pragma unroll
        for (int s = 0; s < P + 2; ++s) {
          const int row = i + r - 1, col = j0 + s - 1;
          const bool inside = row >= 0 && row < g.h && col >= 0 && col < g.w;
          near[r][s] = inside ? t[((n * g.h + row) * g.w + col) * g.C + c] : 0.0f;
        }
      }
      // One output at a time, so that only its 16 combined weights are live.
#pragma unroll
      for (int o = 0; o < O; ++o) {
        float k[3][3];
#pragma unroll
        for (int ky = 0; ky < 3; ++ky) {
#pragma unroll
          for (int kx = 0; kx < 3; ++kx) k[ky][kx] = w[int64_t((o * 3 + ky) * 3 + kx) * g.C + c];
        }
#pragma unroll
        for (int u = 0; u < 2; ++u) {
#pragma unroll
          for (int v = 0; v < 2; ++v) {
#pragma unroll
            for (int r = 0; r < 2; ++r) {
#pragma unroll
              for (int s = 0; s < 2; ++s) {
                float combined = 0.0f;
#pragma unroll
                for (int ky = 0; ky < 3; ++ky) {
#pragma unroll
                  for (int kx = 0; kx < 3; ++kx) {
                    if (tap_lands(u, r, ky) && tap_lands(v, s, kx)) combined += k[ky][kx];
                  }
                }
#pragma unroll
                for (int p = 0; p < P; ++p) {
                  acc[p][u][v][o] = fmaf(combined, near[u + r][p + v + s], acc[p][u][v][o]);
                }
              }
            }
          }
        }
      }
    }
    // The lanes' sums; lane 0's total is the one written (the same every run).
#pragma unroll
    for (int p = 0; p < P; ++p) {
#pragma unroll
      for (int u = 0; u < 2; ++u) {
#pragma unroll
        for (int v = 0; v < 2; ++v) {
#pragma unroll
          for (int o = 0; o < O; ++o) {
            float sum = acc[p][u][v][o];
#pragma unroll
            for (int offset = 16; offset > 0; offset /= 2)
              sum += __shfl_xor_sync(0xffffffffu, sum, offset);
            acc[p][u][v][o] = sum;
          }
        }
      }
    }
    if (lane != 0) continue;
#pragma unroll
    for (int p = 0; p < P; ++p) {
      const int j = j0 + p;
      if (j >= g.w) break;
#pragma unroll
      for (int u = 0; u < 2; ++u) {
#pragma unroll
        for (int v = 0; v < 2; ++v) {
          const int64_t pixel = (n * g.H + 2 * i + u) * g.W + 2 * j + v;
#pragma unroll
          for (int o = 0; o < O; ++o) y[pixel * O + o] = acc[p][u][v][o] + b[o];
        }
      }
    }
  }
}

// upsampled_combined_weights (v4_upsampled_conv.hpp): one element per thread.
// Output row 2i + u reads small row i + ty - 1 through side r = ty - u of
// its two (tap_lands), so a (ty, tx) outside the phase's 2x2 sides is zero.
__global__ void __launch_bounds__(256)
    combined_weights_kernel(int O, int C, int64_t rows, int64_t ld, const float* __restrict__ w,
                            __nv_bfloat16* __restrict__ out) {
  cae_cuda::begin_after_prior_kernels();
  const int64_t count = rows * ld;
  const int64_t stride = int64_t(gridDim.x) * blockDim.x;
  for (int64_t e = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; e < count; e += stride) {
    const int64_t n = e / ld, k = e - n * ld;
    float sum = 0.0f;
    if (n < 4 * O && k < int64_t(kTaps) * C) {
      const int tap = int(k / C), c = int(k - int64_t(tap) * C);
      const int o = int(n) >> 2, u = (int(n) >> 1) & 1, v = int(n) & 1;
      const int r = tap / 3 - u, s = tap % 3 - v;
      if (r >= 0 && r <= 1 && s >= 0 && s <= 1) {
        for (int ky = 0; ky < 3; ++ky) {
          for (int kx = 0; kx < 3; ++kx) {
            if (tap_lands(u, r, ky) && tap_lands(v, s, kx)) {
              sum += w[int64_t((o * 3 + ky) * 3 + kx) * C + c];
            }
          }
        }
      }
    }
    out[e] = __float2bfloat16_rn(sum);
  }
}

// One thread per channel c of t, over tiles of kSmallPerTile small pixels:
// per tile the block stages S (gradient_sum) of its pixels in shared memory,
// then each thread accumulates dw and writes dt[q][c] for each pixel.
template <int O>
__global__ void __launch_bounds__(kMaxChannels)
    upsampled_conv_backward_kernel(Geometry g, int32_t tiles_per_block, const float* __restrict__ t,
                                   const float* __restrict__ w, const float* __restrict__ dy,
                                   bool relu_t, float* __restrict__ dt,
                                   __nv_bfloat16* __restrict__ dt_bf16,
                                   float* __restrict__ partials) {
  constexpr int kWeights = O * kTaps;              // per channel: w[o][tap], k = o * 9 + tap
  constexpr int kStride = (kWeights + 3) / 4 * 4;  // a pixel's sums, 16-byte aligned
  __shared__ __align__(16) float sums[kSmallPerTile * kStride];
  cae_cuda::begin_after_prior_kernels();
  const int c = threadIdx.x;
  const bool active = c < g.C;
  float weight[kWeights], wsum[kWeights];
#pragma unroll
  for (int k = 0; k < kWeights; ++k) {
    weight[k] = active ? w[int64_t(k) * g.C + c] : 0.0f;  // w[o][tap][c]
    wsum[k] = 0.0f;
  }
  float bias_sum = 0.0f;  // threads c < O: db[c]
  // The padding after each pixel's sums is loaded with them, never used: zeroed once.
  constexpr int kPadding = kStride - kWeights;
  if constexpr (kPadding > 0) {
    for (int e = threadIdx.x; e < kSmallPerTile * kPadding; e += blockDim.x) {
      const int p = e / kPadding;
      sums[p * kStride + kWeights + (e - p * kPadding)] = 0.0f;
    }
  }
  const int plane = g.h * g.w;
  const int64_t block_first = int64_t(blockIdx.x) * tiles_per_block * kSmallPerTile;
  for (int tile = 0; tile < tiles_per_block; ++tile) {
    const int64_t first = block_first + int64_t(tile) * kSmallPerTile;
    if (first >= g.small_pixels) break;  // the same for every thread of the block
    const int count = int(min(int64_t(kSmallPerTile), g.small_pixels - first));
    // The first pixel's value now: its load overlaps the staging.
    float next = active ? t[first * g.C + c] : 0.0f;
    __syncthreads();  // the previous tile's sums are read
    for (int e = threadIdx.x; e < count * kWeights; e += blockDim.x) {
      const int p = e / kWeights, k = e - p * kWeights;
      const int o = k / kTaps, tap = k - o * kTaps;
      const int64_t q = first + p;
      const int64_t n = q / plane;
      const int in_plane = int(q - n * plane);
      const int i = in_plane / g.w, j = in_plane - i * g.w;
      sums[p * kStride + k] = gradient_sum<O>(dy, g, n, i, j, o, tap / 3, tap % 3);
    }
    __syncthreads();
    if (c < O) {
      for (int p = 0; p < count; ++p) bias_sum += sums[p * kStride + c * kTaps + 4];
    }
    if (!active) continue;
    for (int p = 0; p < count; ++p) {
      const float value = next;
      if (p + 1 < count) next = t[(first + p + 1) * g.C + c];
      float s[kStride];
#pragma unroll
      for (int v = 0; v < kStride / 4; ++v) {
        const float4 f = reinterpret_cast<const float4*>(sums + p * kStride)[v];
        s[4 * v] = f.x;
        s[4 * v + 1] = f.y;
        s[4 * v + 2] = f.z;
        s[4 * v + 3] = f.w;
      }
      // Three chains of products for dt instead of one as long as all of them.
      float grads[3] = {};
#pragma unroll
      for (int k = 0; k < kWeights; ++k) {
        grads[k % 3] = fmaf(weight[k], s[k], grads[k % 3]);
        wsum[k] = fmaf(value, s[k], wsum[k]);
      }
      const float grad = (grads[0] + grads[1]) + grads[2];
      const float masked = relu_t && !(value > 0.0f) ? 0.0f : grad;
      dt[(first + p) * g.C + c] = masked;
      if (dt_bf16) dt_bf16[(first + p) * g.C + c] = __float2bfloat16_rn(masked);
    }
  }
  // This block's row of partial sums: dw in its storage order, then db.
  float* row = partials + int64_t(blockIdx.x) * (int64_t(O) * kTaps * g.C + O);
  if (active) {
#pragma unroll
    for (int k = 0; k < kWeights; ++k) row[int64_t(k) * g.C + c] = wsum[k];
  }
  if (c < O) row[int64_t(O) * kTaps * g.C + c] = bias_sum;
}

}  // namespace

void upsampled_combined_weights(cae_cuda::Context& ctx, const ConvDims& d, const float* w,
                                int64_t rows, int64_t ld, __nv_bfloat16* out) {
  const int64_t blocks = std::min<int64_t>((rows * ld + 255) / 256, 4096);
  cae_cuda::launch(ctx, "upsampled convolution combined weights", combined_weights_kernel,
                   dim3(unsigned(blocks)), dim3(256), 0, int(d.O), int(d.C), rows, ld, w, out);
}

void upsampled_conv_forward(cae_cuda::Context& ctx, const ConvDims& d, const float* t,
                            const float* w, const float* b, float* y) {
  if (upsampled_gemm_forward(ctx, d, t, w, b, y)) return;
  const Geometry g = geometry(d);
  const int64_t groups = g.small_pixels / g.w * ((g.w + kForwardPixels - 1) / kForwardPixels);
  const int64_t wanted = (groups + kWarpsPerBlock - 1) / kWarpsPerBlock;
  const int64_t most = int64_t(std::max(ctx.multiprocessors, 1)) * 16;
  const unsigned blocks = unsigned(std::min(wanted, most));
  const bool covered = with_outputs(d.O, [&](auto outputs) {
    constexpr int O = decltype(outputs)::value;
    cae_cuda::launch(ctx, "upsampled convolution forward", upsampled_conv_forward_kernel<O>,
                     dim3(blocks), dim3(kWarpsPerBlock * 32), 0, g, t, w, b, y);
  });
  if (!covered)
    cae_plugin::fail(CAE_STATUS_INTERNAL, "v4: upsampled convolution of an uncovered shape");
}

void upsampled_conv_backward(cae_cuda::Context& ctx, const ConvDims& d, const float* t,
                             const float* w, const float* dy, bool relu_t, float* dt,
                             __nv_bfloat16* dt_bf16, float* partials, float* dw, float* db) {
  const int64_t blocks = upsampled_backward_blocks(d);
  if (!ctx.tuning.tf32_edge_kernels) {
    const Geometry g = geometry(d);
    const unsigned threads = unsigned((d.C + 31) / 32 * 32);
    const bool covered = with_outputs(d.O, [&](auto outputs) {
      constexpr int O = decltype(outputs)::value;
      cae_cuda::launch(ctx, "upsampled convolution backward", upsampled_conv_backward_kernel<O>,
                       dim3(unsigned(blocks)), dim3(threads), 0, g,
                       int32_t(upsampled_tiles_per_block(d)), t, w, dy, relu_t, dt, dt_bf16,
                       partials);
    });
    if (!covered)
      cae_plugin::fail(CAE_STATUS_INTERNAL, "v4: upsampled convolution of an uncovered shape");
  } else {
    upsampled_conv_backward_tf32(ctx, d, t, w, dy, relu_t, dt, dt_bf16, partials);
  }
  block_sums(ctx, blocks, d.O * kTaps * d.C, d.O, partials, dw, db);
}

}  // namespace cae_v4
