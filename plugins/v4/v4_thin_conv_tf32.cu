// The thin-input convolutions on the tensor cores (v4_thin_conv_tf32.hpp).
//
// Each pre-activation is a dot product of K*K*C <= 36 taps, padded with
// zeros to whole steps of 8: the rows of a TF32 mma.sync m16n8k8 are pixels
// (or, pooled, the four positions of a window), its columns output channels.
// Each FP32 operand is split into two TF32 terms and the three products that
// matter are accumulated (mma_m16n8k8_tf32x3, tensor_core_fragments.cuh):
// about as exact as the FP32 kernels, at three tensor-core steps per 8 taps
// where the CUDA cores took 8 multiply-adds.
//
// A block is 4 warps over 64 output channels (8 column tiles per warp) and
// a tile of 64 pixels, pooled or not, whose patches it stages as the FP32
// kernels do (v4_patches.cuh), rows padded so that a warp's fragment loads
// fall in distinct banks; the block's weights, split, sit beside them.
//
// Both kernels compute every value by the same three steps per 8 taps, on
// the same operands, each value a row of its own in the product (a row's
// results depend on its own operands only): the op path's convolution and the
// fused layer get the same bits, so the same max-pool choices and ReLU zeros.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "resample_kernels.cuh"
#include "runtime_launch.cuh"
#include "tensor_core_fragments.cuh"
#include "v4_fused_shapes.hpp"
#include "v4_patches.cuh"
#include "v4_thin_conv_tf32.hpp"

namespace cae_v4 {
namespace {

using cae_plugin::ConvDims;
using cae_plugin::cuda::mma_m16n8k8_tf32x3;
using cae_plugin::cuda::tf32_terms;
using cae_plugin::cuda::Tf32Terms;

using namespace pooled_tiling;
using namespace patches;

constexpr int kWarps = 4;
constexpr int kColumnTiles = kChannelsPerBlock / 8;  // of 8 channels, each warp all of them
static_assert(kPixelsPerTile % (8 * kWarps) == 0, "whole groups of 8 pixels per warp");

template <int K, int C, int Step>
struct Layout {
  using P = Patch<K, C, Step>;
  static constexpr int steps = (P::taps + 7) / 8;  // of 8 taps
  static constexpr int padded_taps = steps * 8;
  static constexpr int patch_stride = conflict_free_stride(P::floats);
  static constexpr int weight_stride = conflict_free_stride(padded_taps);
};

// The block's weights [channel][tap], split, zero past the last channel and
// the last tap.
template <int Stride, int Taps, int Padded>
__device__ void stage_weights(uint32_t* hi, uint32_t* lo, const float* __restrict__ w,
                              int first_channel, int O) {
  const int threads = blockDim.x;
  for (int i = threadIdx.x; i < kChannelsPerBlock * Padded; i += threads) {
    const int o = i / Padded, k = i - o * Padded;
    const int channel = first_channel + o;
    const float v = channel < O && k < Taps ? w[int64_t(channel) * Taps + k] : 0.0f;
    const Tf32Terms terms = tf32_terms(v);
    hi[o * Stride + k] = terms.hi;
    lo[o * Stride + k] = terms.lo;
  }
}

// One 16-row tile's A fragment for one step, both terms: rows g and g + 8
// read the patches at row0 and row8, taps t and t + 4 of the step at the
// given offsets (-1: a padding tap, zero).
struct Fragment {
  uint32_t hi[4], lo[4];
};

__device__ __forceinline__ void load_fragment(Fragment& f, const float* row0, const float* row8,
                                              int offset0, int offset4) {
  const float v[4] = {offset0 >= 0 ? row0[offset0] : 0.0f, offset0 >= 0 ? row8[offset0] : 0.0f,
                      offset4 >= 0 ? row0[offset4] : 0.0f, offset4 >= 0 ? row8[offset4] : 0.0f};
#pragma unroll
  for (int r = 0; r < 4; ++r) {
    const Tf32Terms terms = tf32_terms(v[r]);
    f.hi[r] = terms.hi;
    f.lo[r] = terms.lo;
  }
}

// The B fragment of column tile `tile`, step s: b0 = B[t][g], b1 = B[t + 4][g].
template <int Stride>
__device__ __forceinline__ void load_b(Tf32Terms& b0, Tf32Terms& b1, const uint32_t* w_hi,
                                       const uint32_t* w_lo, int tile, int s, int g, int t) {
  const int at = (tile * 8 + g) * Stride + s * 8 + t;
  b0 = Tf32Terms{w_hi[at], w_lo[at]};
  b1 = Tf32Terms{w_hi[at + 4], w_lo[at + 4]};
}

template <int K, int C>
__global__ void __launch_bounds__(kWarps * 32)
    thin_conv_forward_tf32_kernel(int32_t H, int32_t W, int32_t O, int64_t pixels,
                                  const float* __restrict__ x, const float* __restrict__ w,
                                  const float* __restrict__ b, float* __restrict__ y, bool relu) {
  using L = Layout<K, C, 1>;
  __shared__ __align__(16) float patches[kPixelsPerTile * L::patch_stride];
  __shared__ uint32_t w_hi[kChannelsPerBlock * L::weight_stride];
  __shared__ uint32_t w_lo[kChannelsPerBlock * L::weight_stride];
  cae_cuda::begin_after_prior_kernels();
  const int first_channel = blockIdx.y * kChannelsPerBlock;
  const int64_t first = int64_t(blockIdx.x) * kPixelsPerTile;
  const int count = int(min(int64_t(kPixelsPerTile), pixels - first));
  stage_weights<L::weight_stride, L::P::taps, L::padded_taps>(w_hi, w_lo, w, first_channel, O);
  stage_patches<K, C, 1, L::patch_stride>(patches, x, H, W, H, W, first, count);
  clear_unused_patches<L::patch_stride>(patches, count, kPixelsPerTile);
  __syncthreads();
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
  // 16 pixels per warp: rows g and g + 8 of its one row tile.
  const int p0 = warp * 16 + g, p8 = p0 + 8;
  const float* row0 = patches + p0 * L::patch_stride;
  const float* row8 = patches + p8 * L::patch_stride;
  float acc[kColumnTiles][4] = {};
#pragma unroll
  for (int s = 0; s < L::steps; ++s) {
    Fragment a;
    load_fragment(a, row0, row8, tap_offset<K, C, 1>(s * 8 + t),
                  tap_offset<K, C, 1>(s * 8 + t + 4));
#pragma unroll
    for (int tile = 0; tile < kColumnTiles; ++tile) {
      Tf32Terms b0, b1;
      load_b<L::weight_stride>(b0, b1, w_hi, w_lo, tile, s, g, t);
      mma_m16n8k8_tf32x3(acc[tile], a.hi, a.lo, b0, b1);
    }
  }
#pragma unroll
  for (int tile = 0; tile < kColumnTiles; ++tile) {
#pragma unroll
    for (int j = 0; j < 2; ++j) {
      const int o = first_channel + tile * 8 + 2 * t + j;
      if (o >= O) continue;
      const float bias = b[o];
#pragma unroll
      for (int half = 0; half < 2; ++half) {
        const int p = half ? p8 : p0;
        if (p >= count) continue;
        const float v = acc[tile][2 * half + j] + bias;
        y[(first + p) * O + o] = relu ? (v > 0.0f ? v : 0.0f) : v;
      }
    }
  }
}

// Pooled: a warp takes 8 pooled pixels at a time, as two row tiles: rows g
// and g + 8 of tile dy are the window positions (dy, 0) and (dy, 1) of
// pooled pixel g, so each thread holds all four values of its pixel's window
// for its two channels per column tile.
template <int K, int C>
__global__ void __launch_bounds__(kWarps * 32)
    pooled_conv_forward_tf32_kernel(PoolGeometry geo, const float* __restrict__ x,
                                    const float* __restrict__ w, const float* __restrict__ b,
                                    float* __restrict__ pooled, uint8_t* __restrict__ choice,
                                    __nv_bfloat16* __restrict__ pooled_bf16) {
  using L = Layout<K, C, 2>;
  using P = typename L::P;
  __shared__ __align__(16) float patches[kPixelsPerTile * L::patch_stride];
  __shared__ uint32_t w_hi[kChannelsPerBlock * L::weight_stride];
  __shared__ uint32_t w_lo[kChannelsPerBlock * L::weight_stride];
  cae_cuda::begin_after_prior_kernels();
  const int first_channel = blockIdx.y * kChannelsPerBlock;
  const int64_t first = int64_t(blockIdx.x) * kPixelsPerTile;
  const int count = int(min(int64_t(kPixelsPerTile), geo.pooled_pixels - first));
  stage_weights<L::weight_stride, P::taps, L::padded_taps>(w_hi, w_lo, w, first_channel, geo.O);
  stage_patches<K, C, 2, L::patch_stride>(patches, x, geo.H, geo.W, geo.pooled_rows,
                                          geo.pooled_cols, first, count);
  clear_unused_patches<L::patch_stride>(patches, count, kPixelsPerTile);
  __syncthreads();
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
  int offset0[L::steps], offset4[L::steps];
#pragma unroll
  for (int s = 0; s < L::steps; ++s) {
    offset0[s] = tap_offset<K, C, 2>(s * 8 + t);
    offset4[s] = tap_offset<K, C, 2>(s * 8 + t + 4);
  }
  float bias[kColumnTiles][2];
#pragma unroll
  for (int tile = 0; tile < kColumnTiles; ++tile) {
#pragma unroll
    for (int j = 0; j < 2; ++j) {
      const int o = first_channel + tile * 8 + 2 * t + j;
      bias[tile][j] = o < geo.O ? b[o] : 0.0f;
    }
  }
  for (int group = warp; group * 8 < count; group += kWarps) {
    const int p = group * 8 + g;  // this thread's pooled pixel in the tile
    const float* patch = patches + p * L::patch_stride;
    float acc[2][kColumnTiles][4] = {};
#pragma unroll
    for (int s = 0; s < L::steps; ++s) {
      Fragment a[2];
#pragma unroll
      for (int dy = 0; dy < 2; ++dy) {
        // Rows g and g + 8: window positions (dy, 0) and (dy, 1).
        const float* row0 = patch + dy * P::row;
        load_fragment(a[dy], row0, row0 + C, offset0[s], offset4[s]);
      }
#pragma unroll
      for (int tile = 0; tile < kColumnTiles; ++tile) {
        Tf32Terms b0, b1;
        load_b<L::weight_stride>(b0, b1, w_hi, w_lo, tile, s, g, t);
#pragma unroll
        for (int dy = 0; dy < 2; ++dy)
          mma_m16n8k8_tf32x3(acc[dy][tile], a[dy].hi, a[dy].lo, b0, b1);
      }
    }
    if (p >= count) continue;
#pragma unroll
    for (int tile = 0; tile < kColumnTiles; ++tile) {
#pragma unroll
      for (int j = 0; j < 2; ++j) {
        const int o = first_channel + tile * 8 + 2 * t + j;
        if (o >= geo.O) continue;
        const float v0 = acc[0][tile][j] + bias[tile][j];
        const float v1 = acc[0][tile][2 + j] + bias[tile][j];
        const float v2 = acc[1][tile][j] + bias[tile][j];
        const float v3 = acc[1][tile][2 + j] + bias[tile][j];
        write_pooled(v0, v1, v2, v3, (first + p) * geo.O + o, pooled, choice, pooled_bf16);
      }
    }
  }
}

}  // namespace

void thin_conv_forward_tf32(cae_cuda::Context& ctx, const ConvDims& d, const float* x,
                            const float* w, const float* b, float* y, bool relu) {
  const int64_t pixels = d.N * d.H * d.W;
  const dim3 grid(unsigned((pixels + kPixelsPerTile - 1) / kPixelsPerTile), channel_blocks(d));
  const bool covered = with_shape(d.K, d.C, [&](auto shape) {
    using S = decltype(shape);
    cae_cuda::launch(ctx, "thin-input convolution forward (TF32 terms)",
                     thin_conv_forward_tf32_kernel<S::k, S::c>, grid, dim3(kWarps * 32), 0,
                     int32_t(d.H), int32_t(d.W), int32_t(d.O), pixels, x, w, b, y, relu);
  });
  if (!covered)
    cae_plugin::fail(CAE_STATUS_INTERNAL, "v4: thin-input convolution of an uncovered shape");
}

void pooled_conv_forward_tf32(cae_cuda::Context& ctx, const ConvDims& d, const float* x,
                              const float* w, const float* b, float* pooled, uint8_t* choice,
                              __nv_bfloat16* pooled_bf16) {
  const PoolGeometry geo = geometry(d);
  const dim3 grid(unsigned(pooled_tiles(d)), channel_blocks(d));
  const bool covered = with_shape(d.K, d.C, [&](auto shape) {
    using S = decltype(shape);
    cae_cuda::launch(ctx, "pooled convolution forward (TF32 terms)",
                     pooled_conv_forward_tf32_kernel<S::k, S::c>, grid, dim3(kWarps * 32), 0, geo,
                     x, w, b, pooled, choice, pooled_bf16);
  });
  if (!covered)
    cae_plugin::fail(CAE_STATUS_INTERNAL, "v4: pooled convolution of an uncovered shape");
}

}  // namespace cae_v4
