// The fused first layer (v4_pooled_conv.hpp) and the op path's thin-input
// convolution: their FP32 kernels, the default (with edge-kernels=tensor-cores
// the entry points below pass to the tensor-core variant, v4_thin_conv_tf32.cu
// and v4_pooled_backward_tf32.cu), and their choice per (K, C).
//
// Every kernel tiles the same way. A block is 64 output channels (x) by 4
// lanes of pixels (y); it stages, for a tile of 64 pixels, the input patch
// each pixel reads (K x K x C, or (K+1) x (K+1) x C under a pooled pixel's
// 2x2 window) in shared memory, zero outside the image (the convolution's
// "same" padding), and each thread keeps its channel's K*K*C weights, or its
// K*K*C + 1 sums, in registers. A warp is 32 channels of one pixel: it reads
// the pixel's patch into registers with 16-byte broadcast loads, and its
// loads and stores of channels-last tensors are 32 consecutive elements.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "resample_kernels.cuh"
#include "runtime_launch.cuh"
#include "v4_block_sums.hpp"
#include "v4_patches.cuh"
#include "v4_pooled_backward_tf32.hpp"
#include "v4_pooled_conv.hpp"
#include "v4_thin_conv_tf32.hpp"

namespace cae_v4 {
namespace {

using cae_plugin::ConvDims;

using namespace pooled_tiling;
using namespace patches;

// One pre-activation: the K*K*C products in tap-major order, then the bias.
// The op path's convolution (thin_conv_forward) and the fused layer
// (pooled_conv_forward) both compute every value through this, so both get
// the same bits, and so the same max-pool choices and ReLU zeros: a graph
// with the layer fused routes every gradient where the op path does.
template <int K, int C, int Step, int Dy, int Dx>
__device__ __forceinline__ float pre_activation(const float (&weight)[K * K * C], float bias,
                                                const float (&patch)[Patch<K, C, Step>::floats]) {
  using P = Patch<K, C, Step>;
  float sum = 0.0f;
  for_each_tap<K, C>([&](int tap, int ky, int kx, int c) {
    sum = fmaf(weight[tap], patch[P::at(Dy, Dx, ky, kx, c)], sum);
  });
  return sum + bias;
}

// A tile pixel's patch into registers, 16 bytes at a time (a warp's threads
// all read the same patch: broadcasts).
template <int Floats>
__device__ __forceinline__ void load_patch(float (&to)[Floats], const float* from) {
  static_assert(Floats % 4 == 0, "patches are padded to 16 bytes");
#pragma unroll
  for (int v = 0; v < Floats / 4; ++v) {
    const float4 f = reinterpret_cast<const float4*>(from)[v];
    to[4 * v] = f.x;
    to[4 * v + 1] = f.y;
    to[4 * v + 2] = f.z;
    to[4 * v + 3] = f.w;
  }
}

// This thread's channel's weights and bias (zeros past the last channel).
template <int Taps>
__device__ __forceinline__ void load_weights(float (&weight)[Taps], float& bias, int o, int O,
                                             const float* __restrict__ w,
                                             const float* __restrict__ b) {
  const bool active = o < O;
#pragma unroll
  for (int t = 0; t < Taps; ++t) weight[t] = active ? w[int64_t(o) * Taps + t] : 0.0f;
  bias = active ? b[o] : 0.0f;
}

// The op path's convolution of a thin input: y = [ReLU](conv(x, w) + b).
template <int K, int C>
__global__ void __launch_bounds__(kChannelsPerBlock* kLanes)
    thin_conv_forward_kernel(int32_t H, int32_t W, int32_t O, int64_t pixels,
                             const float* __restrict__ x, const float* __restrict__ w,
                             const float* __restrict__ b, float* __restrict__ y, bool relu) {
  using P = Patch<K, C, 1>;
  __shared__ __align__(16) float patches[kPixelsPerTile * P::floats];
  cae_cuda::begin_after_prior_kernels();
  const int o = blockIdx.y * kChannelsPerBlock + threadIdx.x;
  float weight[P::taps], bias;
  load_weights(weight, bias, o, O, w, b);
  const int64_t first = int64_t(blockIdx.x) * kPixelsPerTile;
  const int count = int(min(int64_t(kPixelsPerTile), pixels - first));
  stage_patches<K, C, 1>(patches, x, H, W, H, W, first, count);
  __syncthreads();
  if (o >= O) return;
  for (int p = threadIdx.y; p < count; p += kLanes) {
    float patch[P::floats];
    load_patch(patch, patches + p * P::floats);
    const float v = pre_activation<K, C, 1, 0, 0>(weight, bias, patch);
    y[(first + p) * O + o] = relu ? (v > 0.0f ? v : 0.0f) : v;
  }
}

template <int K, int C>
__global__ void __launch_bounds__(kChannelsPerBlock* kLanes)
    pooled_conv_forward_kernel(PoolGeometry g, const float* __restrict__ x,
                               const float* __restrict__ w, const float* __restrict__ b,
                               float* __restrict__ pooled, uint8_t* __restrict__ choice,
                               __nv_bfloat16* __restrict__ pooled_bf16) {
  using P = Patch<K, C, 2>;
  __shared__ __align__(16) float patches[kPixelsPerTile * P::floats];
  cae_cuda::begin_after_prior_kernels();
  const int o = blockIdx.y * kChannelsPerBlock + threadIdx.x;
  float weight[P::taps], bias;
  load_weights(weight, bias, o, g.O, w, b);
  const int64_t first = int64_t(blockIdx.x) * kPixelsPerTile;
  const int count = int(min(int64_t(kPixelsPerTile), g.pooled_pixels - first));
  stage_patches<K, C, 2>(patches, x, g.H, g.W, g.pooled_rows, g.pooled_cols, first, count);
  __syncthreads();
  if (o >= g.O) return;
  for (int p = threadIdx.y; p < count; p += kLanes) {
    float patch[P::floats];
    load_patch(patch, patches + p * P::floats);
    const float v0 = pre_activation<K, C, 2, 0, 0>(weight, bias, patch);
    const float v1 = pre_activation<K, C, 2, 0, 1>(weight, bias, patch);
    const float v2 = pre_activation<K, C, 2, 1, 0>(weight, bias, patch);
    const float v3 = pre_activation<K, C, 2, 1, 1>(weight, bias, patch);
    write_pooled(v0, v1, v2, v3, (first + p) * g.O + o, pooled, choice, pooled_bf16);
  }
}

// The offset, in a staged patch (Patch<K, C, 2>), of the window element a
// pool choice names: the runtime's code 2 * Dy + Dx (resample_kernels.cuh).
template <int K, int C>
__device__ __forceinline__ int chosen_offset(uint8_t code) {
  using P = Patch<K, C, 2>;
  return ((code >> 1) & 1) * P::row + (code & 1) * C;
}

// Per block: the sums of dw (K*K*C) and db (1) of its channels over its
// tiles, written to the block's row of partials.
//
// Each (pooled pixel, channel) has one chosen window element, a different
// one per channel: the 32 channels of a warp read their products' inputs at
// up to 4 offsets of the same staged patch, straight from shared memory (the
// 4 offsets, 0, C, row and row + C floats apart, fall in different banks: one
// pass per load). One load and one multiply-add per tap, and no branch on
// the choice (branching made a warp run the products of every window element
// its channels chose: 4 times the multiply-adds). The tile's choices and
// gradients are loaded before its patches are staged, so that their latency
// overlaps the staging instead of stalling each pixel in turn.
template <int K, int C>
__global__ void __launch_bounds__(kChannelsPerBlock* kLanes)
    pooled_conv_weight_partials_kernel(PoolGeometry g, int32_t tiles_per_block,
                                       const float* __restrict__ x,
                                       const uint8_t* __restrict__ choice,
                                       const float* __restrict__ dpooled,
                                       float* __restrict__ partials) {
  using P = Patch<K, C, 2>;
  constexpr int sums = P::taps + 1;
  constexpr int kPerLane = kPixelsPerTile / kLanes;  // tile pixels per thread
  static_assert(kPixelsPerTile % kLanes == 0, "every lane takes as many tile pixels");
  __shared__ __align__(16) float patches[kPixelsPerTile * P::floats];
  __shared__ float lane_sums[sums * kChannelsPerBlock];
  cae_cuda::begin_after_prior_kernels();
  const int o = blockIdx.y * kChannelsPerBlock + threadIdx.x;
  const bool active = o < g.O;
  float sum[sums];
#pragma unroll
  for (int s = 0; s < sums; ++s) sum[s] = 0.0f;
  const int64_t block_first = int64_t(blockIdx.x) * kPixelsPerTile * tiles_per_block;
  for (int tile = 0; tile < tiles_per_block; ++tile) {
    const int64_t first = block_first + int64_t(tile) * kPixelsPerTile;
    if (first >= g.pooled_pixels) break;  // the same for every thread of the block
    const int count = int(min(int64_t(kPixelsPerTile), g.pooled_pixels - first));
    uint8_t codes[kPerLane];
    float grads[kPerLane];
#pragma unroll
    for (int i = 0; i < kPerLane; ++i) {
      const int p = threadIdx.y + i * kLanes;
      const bool inside = active && p < count;
      const int64_t e = (first + p) * g.O + o;
      codes[i] = inside ? choice[e] : uint8_t(0);  // no kChoicePositive: no gradient
      grads[i] = inside ? dpooled[e] : 0.0f;
    }
    __syncthreads();  // the previous tile's patches are read
    stage_patches<K, C, 2>(patches, x, g.H, g.W, g.pooled_rows, g.pooled_cols, first, count);
    __syncthreads();
    if (!active) continue;
#pragma unroll
    for (int i = 0; i < kPerLane; ++i) {
      const int p = threadIdx.y + i * kLanes;
      if (p >= count) break;
      // The ReLU's or the pool's zero: no gradient reaches this pixel's window.
      const bool positive = (codes[i] & cae_cuda::kChoicePositive) != 0;
      const float grad = positive ? grads[i] : 0.0f;
      const float* patch = patches + p * P::floats + chosen_offset<K, C>(codes[i]);
      for_each_tap<K, C>([&](int tap, int ky, int kx, int c) {
        sum[tap] = fmaf(grad, patch[P::at(0, 0, ky, kx, c)], sum[tap]);
      });
      sum[P::taps] += grad;
    }
  }
  // The lanes' sums, added in a fixed order (lane 0, 1, 2, 3): deterministic.
  for (int lane = 0; lane < kLanes; ++lane) {
    if (threadIdx.y == lane) {
#pragma unroll
      for (int s = 0; s < sums; ++s) {
        float& slot = lane_sums[s * kChannelsPerBlock + threadIdx.x];
        slot = lane == 0 ? sum[s] : slot + sum[s];
      }
    }
    __syncthreads();
  }
  if (threadIdx.y != 0 || !active) return;
  // In the order of dw's storage, then db (block_sums.hpp).
  float* block_partials = partials + int64_t(blockIdx.x) * sums * g.O;
  for (int s = 0; s < P::taps; ++s) {
    block_partials[int64_t(o) * P::taps + s] = lane_sums[s * kChannelsPerBlock + threadIdx.x];
  }
  block_partials[int64_t(P::taps) * g.O + o] = lane_sums[P::taps * kChannelsPerBlock + threadIdx.x];
}

}  // namespace

void thin_conv_forward(cae_cuda::Context& ctx, const ConvDims& d, const float* x, const float* w,
                       const float* b, float* y, bool relu) {
  if (ctx.tuning.tf32_edge_kernels) return thin_conv_forward_tf32(ctx, d, x, w, b, y, relu);
  const int64_t pixels = d.N * d.H * d.W;
  const dim3 grid(unsigned((pixels + kPixelsPerTile - 1) / kPixelsPerTile), channel_blocks(d));
  const bool covered = with_shape(d.K, d.C, [&](auto shape) {
    using S = decltype(shape);
    cae_cuda::launch(ctx, "thin-input convolution forward", thin_conv_forward_kernel<S::k, S::c>,
                     grid, dim3(kChannelsPerBlock, kLanes), 0, int32_t(d.H), int32_t(d.W),
                     int32_t(d.O), pixels, x, w, b, y, relu);
  });
  if (!covered)
    cae_plugin::fail(CAE_STATUS_INTERNAL, "v4: thin-input convolution of an uncovered shape");
}

void pooled_conv_forward(cae_cuda::Context& ctx, const ConvDims& d, const float* x, const float* w,
                         const float* b, float* pooled, uint8_t* choice,
                         __nv_bfloat16* pooled_bf16) {
  if (ctx.tuning.tf32_edge_kernels)
    return pooled_conv_forward_tf32(ctx, d, x, w, b, pooled, choice, pooled_bf16);
  const PoolGeometry g = geometry(d);
  const dim3 grid(unsigned(pooled_tiles(d)), channel_blocks(d));
  const bool covered = with_shape(d.K, d.C, [&](auto shape) {
    using S = decltype(shape);
    cae_cuda::launch(ctx, "pooled convolution forward", pooled_conv_forward_kernel<S::k, S::c>,
                     grid, dim3(kChannelsPerBlock, kLanes), 0, g, x, w, b, pooled, choice,
                     pooled_bf16);
  });
  if (!covered)
    cae_plugin::fail(CAE_STATUS_INTERNAL, "v4: pooled convolution of an uncovered shape");
}

void pooled_conv_backward(cae_cuda::Context& ctx, const ConvDims& d, const float* x,
                          const uint8_t* choice, const float* dpooled, float* partials, float* dw,
                          float* db) {
  const int64_t blocks = pooled_weight_blocks(d);
  if (!ctx.tuning.tf32_edge_kernels) {
    const PoolGeometry g = geometry(d);
    const bool covered = with_shape(d.K, d.C, [&](auto shape) {
      using S = decltype(shape);
      cae_cuda::launch(
          ctx, "pooled convolution weight partials", pooled_conv_weight_partials_kernel<S::k, S::c>,
          dim3(unsigned(blocks), channel_blocks(d)), dim3(kChannelsPerBlock, kLanes), 0, g,
          int32_t(pooled_tiles_per_weight_block(d)), x, choice, dpooled, partials);
    });
    if (!covered)
      cae_plugin::fail(CAE_STATUS_INTERNAL, "v4: pooled convolution of an uncovered shape");
  } else {
    pooled_conv_weight_partials_tf32(ctx, d, x, choice, dpooled, partials);
  }
  block_sums(ctx, blocks, d.K * d.K * d.C * d.O, d.O, partials, dw, db);
}

}  // namespace cae_v4
