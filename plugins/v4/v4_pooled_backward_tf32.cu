// The fused first layer's weight gradient on the tensor cores
// (v4_pooled_backward_tf32.hpp).
//
// Only the chosen element d of each pooled window (d = 2 dy + dx) with a
// positive max has a gradient, and it differs per channel, so the weight
// gradient is four masked products, one per window element:
//   dW[o][k] = sum over d, pooled pixels p of G_d[p][o] * X_d[p][k],
// G_d the pooled gradient where (p, o) chose d and zero elsewhere, X_d the
// input patch of p's window element d. Each is a TF32 mma.sync m16n8k8
// product on operands split into two TF32 terms (mma_m16n8k8_tf32x3): rows
// channels, columns taps, the pixels the summed dimension; all four add into
// the same accumulators. Three quarters of the products multiply zeros; the
// products are not what bounds this kernel but its blocks' staging, with few
// warps resident to hide it: on an H100 it takes about twice as long as the
// FP32 kernel (plugins/v4/README.md, "The tensor-core variant").
//
// A block is 4 warps over 64 channels, one row tile of 16 each, and sums its
// tiles of 64 pooled pixels: their patches staged as the forward pass stages
// them (v4_patches.cuh), their gradients and choices beside them. Its row of
// partial sums has the FP32 kernel's layout, which block_sums adds in a
// fixed order: the result is deterministic.
#include <cuda_runtime.h>

#include <cstdint>

#include "resample_kernels.cuh"
#include "runtime_launch.cuh"
#include "tensor_core_fragments.cuh"
#include "v4_fused_shapes.hpp"
#include "v4_patches.cuh"
#include "v4_pooled_backward_tf32.hpp"

namespace cae_v4 {
namespace {

using cae_plugin::ConvDims;
using cae_plugin::cuda::mma_m16n8k8_tf32x3;
using cae_plugin::cuda::tf32_terms;
using cae_plugin::cuda::Tf32Terms;

using namespace pooled_tiling;
using namespace patches;

constexpr int kWarps = kChannelsPerBlock / 16;  // one row tile of 16 channels each
// The gradients' and choices' rows: a fragment load (pixels t, channels g)
// falls in banks 8 t + g.
constexpr int kGradientStride = kChannelsPerBlock + 8;

template <int K, int C>
struct Layout {
  using P = Patch<K, C, 2>;
  static constexpr int column_tiles = (P::taps + 7) / 8;  // of 8 taps
  static constexpr int patch_stride = conflict_free_stride(P::floats);
};

template <int K, int C>
__global__ void __launch_bounds__(kWarps * 32)
    pooled_conv_weight_partials_tf32_kernel(PoolGeometry geo, int32_t tiles_per_block,
                                            const float* __restrict__ x,
                                            const uint8_t* __restrict__ choice,
                                            const float* __restrict__ dpooled,
                                            float* __restrict__ partials) {
  using L = Layout<K, C>;
  using P = typename L::P;
  __shared__ __align__(16) float patches[kPixelsPerTile * L::patch_stride];
  __shared__ float grads[kPixelsPerTile * kGradientStride];       // zero where no gradient
  __shared__ uint8_t elements[kPixelsPerTile * kGradientStride];  // the window element chosen
  cae_cuda::begin_after_prior_kernels();
  const int first_channel = blockIdx.y * kChannelsPerBlock;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
  // Column tile n's taps 8 n + g (B's columns), in window element (0, 0).
  int offset[L::column_tiles];
#pragma unroll
  for (int n = 0; n < L::column_tiles; ++n) offset[n] = tap_offset<K, C, 2>(n * 8 + g);
  float acc[L::column_tiles][4] = {};
  float bias_sum = 0.0f;  // threads < kChannelsPerBlock: db of channel first_channel + threadIdx.x
  const int64_t block_first = int64_t(blockIdx.x) * kPixelsPerTile * tiles_per_block;
  for (int tile = 0; tile < tiles_per_block; ++tile) {
    const int64_t first = block_first + int64_t(tile) * kPixelsPerTile;
    if (first >= geo.pooled_pixels) break;  // the same for every thread of the block
    const int count = int(min(int64_t(kPixelsPerTile), geo.pooled_pixels - first));
    __syncthreads();  // the previous tile's operands are read
    for (int e = threadIdx.x; e < kPixelsPerTile * kChannelsPerBlock; e += blockDim.x) {
      const int p = e / kChannelsPerBlock, column = e - p * kChannelsPerBlock;
      const int o = first_channel + column;
      float grad = 0.0f;
      uint8_t code = 0;
      if (p < count && o < geo.O) {
        code = choice[(first + p) * geo.O + o];
        // The ReLU's or the pool's zero: no gradient reaches this pixel's window.
        if (code & cae_cuda::kChoicePositive) grad = dpooled[(first + p) * geo.O + o];
      }
      grads[p * kGradientStride + column] = grad;
      elements[p * kGradientStride + column] = code & 3;
    }
    stage_patches<K, C, 2, L::patch_stride>(patches, x, geo.H, geo.W, geo.pooled_rows,
                                            geo.pooled_cols, first, count);
    clear_unused_patches<L::patch_stride>(patches, count, kPixelsPerTile);
    __syncthreads();
    if (threadIdx.x < kChannelsPerBlock) {
      for (int p = 0; p < count; ++p) bias_sum += grads[p * kGradientStride + threadIdx.x];
    }
#pragma unroll 2
    for (int s = 0; s < kPixelsPerTile / 8; ++s) {
      // A = G^T: a0 = G[p][o], a1 = G[p][o + 8], a2 = G[p + 4][o], a3 = G[p + 4][o + 8].
      const int p0 = s * 8 + t, p4 = p0 + 4;
      const int o0 = warp * 16 + g, o8 = o0 + 8;
      const int at[4] = {p0 * kGradientStride + o0, p0 * kGradientStride + o8,
                         p4 * kGradientStride + o0, p4 * kGradientStride + o8};
      Tf32Terms grad[4];
      uint8_t element[4];
#pragma unroll
      for (int r = 0; r < 4; ++r) {
        grad[r] = tf32_terms(grads[at[r]]);
        element[r] = elements[at[r]];
      }
      const float* patch0 = patches + p0 * L::patch_stride;
      const float* patch4 = patches + p4 * L::patch_stride;
#pragma unroll
      for (int d = 0; d < 4; ++d) {
        uint32_t a_hi[4], a_lo[4];
#pragma unroll
        for (int r = 0; r < 4; ++r) {
          const bool chosen = element[r] == d;
          a_hi[r] = chosen ? grad[r].hi : 0u;
          a_lo[r] = chosen ? grad[r].lo : 0u;
        }
        const int window = (d >> 1) * P::row + (d & 1) * C;
#pragma unroll
        for (int n = 0; n < L::column_tiles; ++n) {
          const bool tap = offset[n] >= 0;
          const Tf32Terms b0 = tf32_terms(tap ? patch0[window + offset[n]] : 0.0f);
          const Tf32Terms b1 = tf32_terms(tap ? patch4[window + offset[n]] : 0.0f);
          mma_m16n8k8_tf32x3(acc[n], a_hi, a_lo, b0, b1);
        }
      }
    }
  }
  // In the order of dw's storage ([o][tap]), then db (block_sums.hpp):
  // c0, c1 are channel o0's taps 8 n + 2 t and + 1; c2, c3 channel o0 + 8's.
  float* block_partials = partials + int64_t(blockIdx.x) * (P::taps + 1) * geo.O;
#pragma unroll
  for (int half = 0; half < 2; ++half) {
    const int o = first_channel + warp * 16 + g + half * 8;
    if (o >= geo.O) continue;
#pragma unroll
    for (int n = 0; n < L::column_tiles; ++n) {
#pragma unroll
      for (int j = 0; j < 2; ++j) {
        const int k = n * 8 + 2 * t + j;
        if (k < P::taps) block_partials[int64_t(o) * P::taps + k] = acc[n][2 * half + j];
      }
    }
  }
  const int o = first_channel + int(threadIdx.x);
  if (threadIdx.x < kChannelsPerBlock && o < geo.O)
    block_partials[int64_t(P::taps) * geo.O + o] = bias_sum;
}

}  // namespace

void pooled_conv_weight_partials_tf32(cae_cuda::Context& ctx, const ConvDims& d, const float* x,
                                      const uint8_t* choice, const float* dpooled,
                                      float* partials) {
  const PoolGeometry geo = geometry(d);
  const dim3 grid(unsigned(pooled_weight_blocks(d)), channel_blocks(d));
  const bool covered = with_shape(d.K, d.C, [&](auto shape) {
    using S = decltype(shape);
    cae_cuda::launch(ctx, "pooled convolution weight partials (TF32 terms)",
                     pooled_conv_weight_partials_tf32_kernel<S::k, S::c>, grid, dim3(kWarps * 32),
                     0, geo, int32_t(pooled_tiles_per_weight_block(d)), x, choice, dpooled,
                     partials);
  });
  if (!covered)
    cae_plugin::fail(CAE_STATUS_INTERNAL, "v4: pooled convolution of an uncovered shape");
}

}  // namespace cae_v4
