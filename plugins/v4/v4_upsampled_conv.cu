// The fused last layer (v4_upsampled_conv.hpp): its kernels and their choice
// per number of outputs.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "runtime_launch.cuh"
#include "v4_block_sums.hpp"
#include "v4_upsampled_conv.hpp"

namespace cae_v4 {
namespace {

using cae_plugin::ConvDims;

using namespace upsampled_tiling;

struct Geometry {
  int32_t h, w;  // t's (small) size
  int32_t H, W;  // the output's, 2h x 2w
  int32_t C, O;
  int64_t small_pixels;  // N * h * w
};

Geometry geometry(const ConvDims& d) {
  return Geometry{
      int32_t(d.H / 2), int32_t(d.W / 2),           int32_t(d.H), int32_t(d.W), int32_t(d.C),
      int32_t(d.O),     d.N * (d.H / 2) * (d.W / 2)};
}

// The small row (or column) an upsampled coordinate 2i + u reads, relative to
// i, for u in -1..2: floor(u / 2).
__host__ __device__ constexpr int small_offset(int u) { return u < 0 ? -1 : u / 2; }

// Whether tap k of a 3x3 kernel lands on side 0 or 1 of the two small rows
// (or columns) an output of phase u reads: output row 2i + u reads small rows
// i - 1 + u (side 0) and i + u (side 1); phase 0 reads row i - 1 with tap 0
// and row i with taps 1 and 2, phase 1 row i with taps 0 and 1 and row i + 1
// with tap 2. Summing the taps that land on one small pixel first makes 4
// products of an output's 9.
__host__ __device__ constexpr bool tap_lands(int u, int side, int k) {
  return small_offset(u + k - 1) == u - 1 + side;
}
static_assert(tap_lands(0, 0, 0) && tap_lands(0, 1, 1) && tap_lands(0, 1, 2) &&
                  tap_lands(1, 0, 0) && tap_lands(1, 0, 1) && tap_lands(1, 1, 2),
              "each tap lands on one side");

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

// One thread per channel c of t. Per small pixel q = (i, j): its value meets
// the output gradients of the 4x4 output pixels (rows 2i-1 .. 2i+2) whose
// taps read one of the 2x2 upsampled pixels above it, staged per tile in
// shared memory ("window"); it accumulates dw, and sums dt[q][c].
template <int O>
__global__ void __launch_bounds__(kMaxChannels)
    upsampled_conv_backward_kernel(Geometry g, int32_t tiles_per_block, const float* __restrict__ t,
                                   const float* __restrict__ w, const float* __restrict__ dy,
                                   bool relu_t, float* __restrict__ dt,
                                   float* __restrict__ partials) {
  constexpr int kWindow = 16 * O;  // 4x4 output pixels x O
  __shared__ float windows[kSmallPerTile * kWindow];
  cae_cuda::begin_after_prior_kernels();
  const int c = threadIdx.x;
  const bool active = c < g.C;
  float weight[O * kTaps], sum[O * kTaps];
#pragma unroll
  for (int k = 0; k < O * kTaps; ++k) {
    weight[k] = active ? w[int64_t(k) * g.C + c] : 0.0f;  // w[o][tap][c]: k = o * 9 + tap
    sum[k] = 0.0f;
  }
  float bias_sum = 0.0f;  // threads c < O: db[c]
  const int plane = g.h * g.w;
  const int64_t block_first = int64_t(blockIdx.x) * tiles_per_block * kSmallPerTile;
  for (int tile = 0; tile < tiles_per_block; ++tile) {
    const int64_t first = block_first + int64_t(tile) * kSmallPerTile;
    if (first >= g.small_pixels) break;  // the same for every thread of the block
    const int count = int(min(int64_t(kSmallPerTile), g.small_pixels - first));
    __syncthreads();  // the previous tile's windows are read
    for (int e = threadIdx.x; e < count * kWindow; e += blockDim.x) {
      const int p = e / kWindow, rest = e - p * kWindow;
      const int cell = rest / O, o = rest - cell * O;
      const int64_t q = first + p;
      const int64_t n = q / plane;
      const int in_plane = int(q - n * plane);
      const int i = in_plane / g.w, j = in_plane - i * g.w;
      const int row = 2 * i - 1 + cell / 4, col = 2 * j - 1 + cell % 4;
      const bool inside = row >= 0 && row < g.H && col >= 0 && col < g.W;
      windows[e] = inside ? dy[((n * g.H + row) * g.W + col) * O + o] : 0.0f;
    }
    __syncthreads();
    for (int p = 0; p < count; ++p) {
      const float* window = windows + p * kWindow;
      if (c < O) {  // each output pixel lies above exactly one small pixel
#pragma unroll
        for (int a = 0; a < 2; ++a) {
#pragma unroll
          for (int bb = 0; bb < 2; ++bb) bias_sum += window[((a + 1) * 4 + bb + 1) * O + c];
        }
      }
      if (!active) continue;
      const int64_t q = first + p;
      const float value = t[q * g.C + c];
      // One chain of products per upsampled pixel above q, added at the end:
      // four independent chains instead of one as long as all of them.
      float grads[2][2] = {};
#pragma unroll
      for (int a = 0; a < 2; ++a) {
#pragma unroll
        for (int bb = 0; bb < 2; ++bb) {
#pragma unroll
          for (int ky = 0; ky < 3; ++ky) {
#pragma unroll
            for (int kx = 0; kx < 3; ++kx) {
              // The output pixel whose tap (ky, kx) reads upsampled (2i+a, 2j+bb).
              const int cell = (a - ky + 2) * 4 + (bb - kx + 2);
#pragma unroll
              for (int o = 0; o < O; ++o) {
                const float d = window[cell * O + o];
                const int k = o * kTaps + ky * 3 + kx;
                grads[a][bb] = fmaf(weight[k], d, grads[a][bb]);
                sum[k] = fmaf(value, d, sum[k]);
              }
            }
          }
        }
      }
      const float grad = (grads[0][0] + grads[0][1]) + (grads[1][0] + grads[1][1]);
      dt[q * g.C + c] = relu_t && !(value > 0.0f) ? 0.0f : grad;
    }
  }
  // This block's row of partial sums: dw in its storage order, then db.
  float* row = partials + int64_t(blockIdx.x) * (int64_t(O) * kTaps * g.C + O);
  if (active) {
#pragma unroll
    for (int k = 0; k < O * kTaps; ++k) row[int64_t(k) * g.C + c] = sum[k];
  }
  if (c < O) row[int64_t(O) * kTaps * g.C + c] = bias_sum;
}

// Calls f(std::integral_constant-like Outputs<O>{}) for O in 1..4.
template <int O>
struct Outputs {
  static constexpr int value = O;
};

template <class F>
bool with_outputs(int64_t O, F&& f) {
  switch (O) {
    case 1:
      f(Outputs<1>{});
      return true;
    case 2:
      f(Outputs<2>{});
      return true;
    case 3:
      f(Outputs<3>{});
      return true;
    case 4:
      f(Outputs<4>{});
      return true;
    default:
      return false;
  }
}

}  // namespace

void upsampled_conv_forward(cae_cuda::Context& ctx, const ConvDims& d, const float* t,
                            const float* w, const float* b, float* y) {
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
                             float* partials, float* dw, float* db) {
  const Geometry g = geometry(d);
  const int64_t blocks = upsampled_backward_blocks(d);
  const unsigned threads = unsigned((d.C + 31) / 32 * 32);
  const bool covered = with_outputs(d.O, [&](auto outputs) {
    constexpr int O = decltype(outputs)::value;
    cae_cuda::launch(ctx, "upsampled convolution backward", upsampled_conv_backward_kernel<O>,
                     dim3(unsigned(blocks)), dim3(threads), 0, g,
                     int32_t(upsampled_tiles_per_block(d)), t, w, dy, relu_t, dt, partials);
  });
  if (!covered)
    cae_plugin::fail(CAE_STATUS_INTERNAL, "v4: upsampled convolution of an uncovered shape");
  block_sums(ctx, blocks, d.O * kTaps * d.C, d.O, partials, dw, db);
}

}  // namespace cae_v4
