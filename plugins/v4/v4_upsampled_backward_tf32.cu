// The fused last layer's backward pass on the tensor cores
// (v4_upsampled_backward_tf32.hpp).
//
// Per tile of 32 small pixels the block stages S[q][k], the output
// gradients each weight k = (o, ky, kx) meets at small pixel q (the FP32
// kernel's sums, gradient_sum), and then runs two products of it:
//   dt = S * W      [32 x 9*O] x [9*O x C]: rows pixels, columns channels;
//   dW += S^T * T   [9*O x 32] x [32 x C]: rows weights, the tile's pixels
//                                          as the summed dimension.
// Both are TF32 mma.sync m16n8k8 steps on operands split into two TF32 terms
// (mma_m16n8k8_tf32x3): about as exact as the FP32 kernel's multiply-adds
// (27 of them per small value, twice). On an H100 this variant takes longer
// than the FP32 kernel (plugins/v4/README.md, "The tensor-core variant").
//
// A block is 8 warps, each owning 32 channels of t (4 column tiles of 8);
// the weights sit in shared memory as FP32 [k][c], rows padded so that a
// warp's fragment loads fall in distinct banks. dW's accumulators stay in
// registers over the block's tiles and go to the block's row of partial
// sums, in the FP32 kernel's layout, which block_sums adds in a fixed
// order: the result is deterministic.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "runtime_launch.cuh"
#include "tensor_core_fragments.cuh"
#include "v4_fused_shapes.hpp"
#include "v4_upsampled_backward_tf32.hpp"
#include "v4_upsampled_geometry.cuh"

namespace cae_v4 {
namespace {

using cae_plugin::ConvDims;
using cae_plugin::cuda::mma_m16n8k8_tf32x3;
using cae_plugin::cuda::tf32_terms;
using cae_plugin::cuda::Tf32Terms;

using namespace upsampled_tiling;
using namespace upsampled;

constexpr int kWarps = kMaxChannels / 32;  // 32 channels each
constexpr int kColumnTiles = 4;            // of 8 channels, per warp
static_assert(kSmallPerTile == 32, "a tile is two row tiles of dt's product, four steps of dW's");

template <int O>
struct Layout {
  static constexpr int weights = O * kTaps;        // K of dt's product, M of dW's
  static constexpr int steps = (weights + 7) / 8;  // dt's steps of 8 weights
  static constexpr int padded = steps * 8;         // S's columns, W's rows (zeros past weights)
  static constexpr int weight_tiles = (weights + 15) / 16;  // dW's row tiles
  // S [q][k]: dt's A loads (rows g, columns t) in 8 banks 4 apart plus t.
  static constexpr int sum_stride = padded + 4;
  // W [k][c]: dt's B loads (rows t, columns g) in banks 8t + g.
  static constexpr int weight_stride = kMaxChannels + 8;
};

// Tile pixel q's sums of the output gradients for every weight, zero past
// the tile's pixels and the layer's weights (all threads of the block).
template <int O>
__device__ void stage_sums(float* sums, const float* __restrict__ dy, const Geometry& g,
                           int64_t first, int count) {
  using L = Layout<O>;
  const int plane = g.h * g.w;
  for (int e = threadIdx.x; e < kSmallPerTile * L::padded; e += blockDim.x) {
    const int p = e / L::padded, k = e - p * L::padded;
    float value = 0.0f;
    if (p < count && k < L::weights) {
      const int o = k / kTaps, tap = k - o * kTaps;
      const int64_t q = first + p;
      const int64_t n = q / plane;
      const int in_plane = int(q - n * plane);
      const int i = in_plane / g.w, j = in_plane - i * g.w;
      value = gradient_sum<O>(dy, g, n, i, j, o, tap / 3, tap % 3);
    }
    sums[p * L::sum_stride + k] = value;
  }
}

template <int O>
__global__ void __launch_bounds__(kWarps * 32)
    upsampled_conv_backward_tf32_kernel(Geometry g, int32_t tiles_per_block,
                                        const float* __restrict__ t, const float* __restrict__ w,
                                        const float* __restrict__ dy, bool relu_t,
                                        float* __restrict__ dt, __nv_bfloat16* __restrict__ dt_bf16,
                                        float* __restrict__ partials) {
  using L = Layout<O>;
  __shared__ __align__(16) float weight[L::padded * L::weight_stride];
  __shared__ __align__(16) float sums[kSmallPerTile * L::sum_stride];
  cae_cuda::begin_after_prior_kernels();
  for (int e = threadIdx.x; e < L::padded * kMaxChannels; e += blockDim.x) {
    const int k = e / kMaxChannels, c = e - k * kMaxChannels;
    weight[k * L::weight_stride + c] =
        k < L::weights && c < g.C ? w[int64_t(k) * g.C + c] : 0.0f;  // w[o][tap][c]
  }
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, gr = lane / 4, t4 = lane % 4;
  const int channel0 = warp * 32;  // this warp's first channel
  const bool warp_active = channel0 < g.C;
  float dw[L::weight_tiles][kColumnTiles][4] = {};
  float bias_sum = 0.0f;  // threads c < O: db[c]
  const int64_t block_first = int64_t(blockIdx.x) * tiles_per_block * kSmallPerTile;
  for (int tile = 0; tile < tiles_per_block; ++tile) {
    const int64_t first = block_first + int64_t(tile) * kSmallPerTile;
    if (first >= g.small_pixels) break;  // the same for every thread of the block
    const int count = int(min(int64_t(kSmallPerTile), g.small_pixels - first));
    __syncthreads();  // the previous tile's sums are read (and, first, the weights staged)
    stage_sums<O>(sums, dy, g, first, count);
    __syncthreads();
    if (threadIdx.x < O) {
      for (int p = 0; p < count; ++p) bias_sum += sums[p * L::sum_stride + threadIdx.x * kTaps + 4];
    }
    if (!warp_active) continue;
    // dt = S * W: two row tiles of 16 pixels.
    float acc[2][kColumnTiles][4] = {};
#pragma unroll
    for (int s = 0; s < L::steps; ++s) {
      uint32_t a_hi[2][4], a_lo[2][4];
#pragma unroll
      for (int m = 0; m < 2; ++m) {
        const float* row0 = sums + (m * 16 + gr) * L::sum_stride + s * 8 + t4;
        const float* row8 = row0 + 8 * L::sum_stride;
        const float v[4] = {row0[0], row8[0], row0[4], row8[4]};
#pragma unroll
        for (int r = 0; r < 4; ++r) {
          const Tf32Terms terms = tf32_terms(v[r]);
          a_hi[m][r] = terms.hi;
          a_lo[m][r] = terms.lo;
        }
      }
#pragma unroll
      for (int n = 0; n < kColumnTiles; ++n) {
        const float* column = weight + (s * 8 + t4) * L::weight_stride + channel0 + n * 8 + gr;
        const Tf32Terms b0 = tf32_terms(column[0]), b1 = tf32_terms(column[4 * L::weight_stride]);
#pragma unroll
        for (int m = 0; m < 2; ++m) mma_m16n8k8_tf32x3(acc[m][n], a_hi[m], a_lo[m], b0, b1);
      }
    }
    // dt's values (c0, c1: row gr, columns 2 t4 and + 1; c2, c3: row gr + 8),
    // the ReLU mask of the layer before merged in.
#pragma unroll
    for (int m = 0; m < 2; ++m) {
#pragma unroll
      for (int half = 0; half < 2; ++half) {
        const int p = m * 16 + gr + half * 8;
        if (p >= count) continue;
        const int64_t row = (first + p) * g.C;
#pragma unroll
        for (int n = 0; n < kColumnTiles; ++n) {
#pragma unroll
          for (int j = 0; j < 2; ++j) {
            const int c = channel0 + n * 8 + 2 * t4 + j;
            if (c >= g.C) continue;
            const float grad = acc[m][n][2 * half + j];
            const float masked = relu_t && !(t[row + c] > 0.0f) ? 0.0f : grad;
            dt[row + c] = masked;
            if (dt_bf16) dt_bf16[row + c] = __float2bfloat16_rn(masked);
          }
        }
      }
    }
    // dW += S^T * T: the tile's 32 pixels in four steps of 8.
#pragma unroll
    for (int s = 0; s < kSmallPerTile / 8; ++s) {
      const int p0 = s * 8 + t4, p4 = p0 + 4;
      Tf32Terms b0[kColumnTiles], b1[kColumnTiles];
#pragma unroll
      for (int n = 0; n < kColumnTiles; ++n) {
        const int c = channel0 + n * 8 + gr;
        const bool inside = c < g.C;
        b0[n] = tf32_terms(inside && p0 < count ? t[(first + p0) * g.C + c] : 0.0f);
        b1[n] = tf32_terms(inside && p4 < count ? t[(first + p4) * g.C + c] : 0.0f);
      }
#pragma unroll
      for (int m = 0; m < L::weight_tiles; ++m) {
        // A = S^T: a0 = S[p0][k], a1 = S[p0][k + 8], a2 = S[p4][k], a3 = S[p4][k + 8].
        const int k0 = m * 16 + gr, k8 = k0 + 8;
        const float v[4] = {k0 < L::padded ? sums[p0 * L::sum_stride + k0] : 0.0f,
                            k8 < L::padded ? sums[p0 * L::sum_stride + k8] : 0.0f,
                            k0 < L::padded ? sums[p4 * L::sum_stride + k0] : 0.0f,
                            k8 < L::padded ? sums[p4 * L::sum_stride + k8] : 0.0f};
        uint32_t a_hi[4], a_lo[4];
#pragma unroll
        for (int r = 0; r < 4; ++r) {
          const Tf32Terms terms = tf32_terms(v[r]);
          a_hi[r] = terms.hi;
          a_lo[r] = terms.lo;
        }
#pragma unroll
        for (int n = 0; n < kColumnTiles; ++n)
          mma_m16n8k8_tf32x3(dw[m][n], a_hi, a_lo, b0[n], b1[n]);
      }
    }
  }
  // This block's row of partial sums: dw in its storage order ([k][c]), then db.
  float* row = partials + int64_t(blockIdx.x) * (int64_t(O) * kTaps * g.C + O);
  if (warp_active) {
#pragma unroll
    for (int m = 0; m < L::weight_tiles; ++m) {
#pragma unroll
      for (int half = 0; half < 2; ++half) {
        const int k = m * 16 + gr + half * 8;
        if (k >= L::weights) continue;
#pragma unroll
        for (int n = 0; n < kColumnTiles; ++n) {
#pragma unroll
          for (int j = 0; j < 2; ++j) {
            const int c = channel0 + n * 8 + 2 * t4 + j;
            if (c < g.C) row[int64_t(k) * g.C + c] = dw[m][n][2 * half + j];
          }
        }
      }
    }
  }
  if (threadIdx.x < O) row[int64_t(O) * kTaps * g.C + threadIdx.x] = bias_sum;
}

}  // namespace

void upsampled_conv_backward_tf32(cae_cuda::Context& ctx, const ConvDims& d, const float* t,
                                  const float* w, const float* dy, bool relu_t, float* dt,
                                  __nv_bfloat16* dt_bf16, float* partials) {
  const Geometry g = geometry(d);
  const int64_t blocks = upsampled_backward_blocks(d);
  const bool covered = with_outputs(d.O, [&](auto outputs) {
    constexpr int O = decltype(outputs)::value;
    cae_cuda::launch(ctx, "upsampled convolution backward (TF32 terms)",
                     upsampled_conv_backward_tf32_kernel<O>, dim3(unsigned(blocks)),
                     dim3(kWarps * 32), 0, g, int32_t(upsampled_tiles_per_block(d)), t, w, dy,
                     relu_t, dt, dt_bf16, partials);
  });
  if (!covered)
    cae_plugin::fail(CAE_STATUS_INTERNAL, "v4: upsampled convolution of an uncovered shape");
}

}  // namespace cae_v4
