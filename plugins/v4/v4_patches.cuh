// The input patches the thin-input kernels stage in shared memory, shared by
// the FP32 kernels (v4_pooled_conv.cu) and the tensor-core ones
// (v4_thin_conv_tf32.cu): each stages a tile's patches the same way and reads
// the same element for each (window position, tap), so both compute every
// value from the same operands.
#pragma once

#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "op_shapes.hpp"
#include "resample_kernels.cuh"
#include "v4_fused_shapes.hpp"

namespace cae_v4 {
namespace patches {

struct PoolGeometry {
  int32_t H, W, O;  // the convolution's (full size)
  int32_t pooled_rows, pooled_cols;
  int64_t pooled_pixels;  // N * H/2 * W/2
};

inline PoolGeometry geometry(const cae_plugin::ConvDims& d) {
  return PoolGeometry{int32_t(d.H),     int32_t(d.W),     int32_t(d.O),
                      int32_t(d.H / 2), int32_t(d.W / 2), d.N * (d.H / 2) * (d.W / 2)};
}

// The input patch of one tile pixel: Side x Side input pixels x C channels,
// Side = K for one output pixel (Step 1), K + 1 for the 2x2 window of a pooled
// one (Step 2). Each pixel's patch starts at a multiple of 4 floats, so that
// it is read as 16-byte vectors.
template <int K, int C, int Step>
struct Patch {
  static constexpr int side = K + Step - 1;
  static constexpr int row = side * C;                     // floats of one patch row
  static constexpr int floats = (side * row + 3) / 4 * 4;  // per tile pixel, padded
  static constexpr int taps = K * K * C;
  // The element of output offset (dy, dx) (0, 0 unpooled), tap (ky, kx), channel c.
  __host__ __device__ static constexpr int at(int dy, int dx, int ky, int kx, int c) {
    return (dy + ky) * row + (dx + kx) * C + c;
  }
};

// f(tap, ky, kx, c) for every weight of a channel, tap = (ky * K + kx) * C + c
// in increasing order; unrolled, so that register arrays indexed by it stay
// in registers.
template <int K, int C, class F>
__device__ __forceinline__ void for_each_tap(F&& f) {
#pragma unroll
  for (int ky = 0; ky < K; ++ky) {
#pragma unroll
    for (int kx = 0; kx < K; ++kx) {
#pragma unroll
      for (int c = 0; c < C; ++c) f((ky * K + kx) * C + c, ky, kx, c);
    }
  }
}

// Stages the patches of tile pixels [first, first + count) (all threads of
// the block). Pixel q = (n, i, j) of a rows x cols grid has its patch's
// top-left input pixel at (Step i - K/2, Step j - K/2). One patch row (Side
// pixels x C channels, contiguous in x) per item, so the pixel's place is
// worked out once per row, not per float. Patches lie Stride floats apart.
template <int K, int C, int Step, int Stride = Patch<K, C, Step>::floats>
__device__ void stage_patches(float* patch, const float* __restrict__ x, int32_t H, int32_t W,
                              int32_t rows, int32_t cols, int64_t first, int count) {
  using P = Patch<K, C, Step>;
  const int threads = blockDim.x * blockDim.y;
  const int items = count * P::side;
  const int plane = rows * cols;
  for (int item = threadIdx.y * blockDim.x + threadIdx.x; item < items; item += threads) {
    const int pixel = item / P::side, r = item - pixel * P::side;
    const int64_t q = first + pixel;
    const int64_t n = q / plane;
    const int in_plane = int(q - n * plane);
    const int i = in_plane / cols, j = in_plane - i * cols;
    const int in_row = Step * i - K / 2 + r, col0 = Step * j - K / 2;
    float* to = patch + pixel * Stride + r * P::row;
    const bool row_inside = in_row >= 0 && in_row < H;
    const float* from = x + ((n * H + (row_inside ? in_row : 0)) * W) * C;
#pragma unroll
    for (int s = 0; s < P::side; ++s) {
      const int col = col0 + s;
      const bool inside = row_inside && col >= 0 && col < W;
#pragma unroll
      for (int c = 0; c < C; ++c) to[s * C + c] = inside ? from[int64_t(col) * C + c] : 0.0f;
    }
  }
}

// The fused layer's output at element e from a window's four pre-activations
// ((0, 0), (0, 1), (1, 0), (1, 1)): the ReLU, then the runtime's max-pool rule
// and record (resample_kernels.cuh), the pooled value, its choice (unless
// NULL) and its BF16 copy (unless NULL).
__device__ __forceinline__ void write_pooled(float v0, float v1, float v2, float v3, int64_t e,
                                             float* __restrict__ pooled,
                                             uint8_t* __restrict__ choice,
                                             __nv_bfloat16* __restrict__ pooled_bf16) {
  float best = 0.0f;
  uint8_t code = cae_cuda::first_max(v0 > 0.0f ? v0 : 0.0f, v1 > 0.0f ? v1 : 0.0f,
                                     v2 > 0.0f ? v2 : 0.0f, v3 > 0.0f ? v3 : 0.0f, best);
  if (best > 0.0f) code |= cae_cuda::kChoicePositive;
  pooled[e] = best;
  if (choice) choice[e] = code;
  if (pooled_bf16) pooled_bf16[e] = __float2bfloat16_rn(best);
}

// -- for the tensor-core kernels (v4_thin_conv_tf32.cu, v4_pooled_backward_tf32.cu)

// A stride, in floats, of at least `floats` that is 4 more than a multiple of
// 8: the 8 rows a fragment load reads (g = lane / 4) then start in 8
// different banks 4 apart, and the 4 taps of a row (t = lane % 4) fill them.
__host__ __device__ constexpr int conflict_free_stride(int floats) {
  return (floats + 3) / 8 * 8 + 4;
}

// The offset, in a staged patch, of tap k of window position (0, 0); -1 for a
// padding tap.
template <int K, int C, int Step>
__device__ __forceinline__ int tap_offset(int k) {
  using P = Patch<K, C, Step>;
  if (k >= P::taps) return -1;
  const int ky = k / (K * C), rest = k - ky * (K * C);
  const int kx = rest / C, c = rest - kx * C;
  return P::at(0, 0, ky, kx, c);
}

// Past a tile's last pixel, zero patches: their rows of the products are
// never stored, but they must hold numbers.
template <int Stride>
__device__ void clear_unused_patches(float* patch, int count, int tile_pixels) {
  for (int i = count * Stride + threadIdx.x; i < tile_pixels * Stride; i += blockDim.x)
    patch[i] = 0.0f;
}

// The grid's blocks of output channels (kChannelsPerBlock each).
inline unsigned channel_blocks(const cae_plugin::ConvDims& d) {
  using pooled_tiling::kChannelsPerBlock;
  return unsigned((d.O + kChannelsPerBlock - 1) / kChannelsPerBlock);
}

template <int K, int C>
struct Shape {
  static constexpr int k = K, c = C;
};

// Calls f(Shape<K, C>{}) for the covered (K, C) (thin_shape_covered); false for others.
template <class F>
inline bool with_shape(int64_t K, int64_t C, F&& f) {
  switch (K * 8 + C) {
    case 1 * 8 + 1:
      f(Shape<1, 1>{});
      return true;
    case 1 * 8 + 2:
      f(Shape<1, 2>{});
      return true;
    case 1 * 8 + 3:
      f(Shape<1, 3>{});
      return true;
    case 1 * 8 + 4:
      f(Shape<1, 4>{});
      return true;
    case 3 * 8 + 1:
      f(Shape<3, 1>{});
      return true;
    case 3 * 8 + 2:
      f(Shape<3, 2>{});
      return true;
    case 3 * 8 + 3:
      f(Shape<3, 3>{});
      return true;
    case 3 * 8 + 4:
      f(Shape<3, 4>{});
      return true;
    case 5 * 8 + 1:
      f(Shape<5, 1>{});
      return true;
    default:
      return false;
  }
}

}  // namespace patches
}  // namespace cae_v4
