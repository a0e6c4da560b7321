// Direct FP32 convolutions for layers with at most four channels on one side
// (see v4_narrow_conv.hpp for why and what they compute).
//
// One block works on one image row at a time: the narrow tensor's three rows
// around it (zero outside the image, channels padded to four) sit in shared
// memory, and each thread owns wide channels, so that the wide tensor, the
// one that costs, is read or written a whole pixel's channels per warp
// instruction. A tap's narrow channels are one 16-byte shared load, which
// every lane of a warp reads at the same address (a broadcast).
#include "v4_narrow_conv.hpp"

#include <algorithm>
#include <type_traits>

#include "v3_launch.cuh"

namespace cae_v4 {
namespace {

constexpr int kMaxNarrow = 4;
constexpr int kMaxGradientWide = 256;  // one thread per wide channel
constexpr int kMaxRowPixels = 512;
constexpr int kWideThreads = 256;  // the widening kernel loops over wider layers
// Weight-gradient blocks per multiprocessor: each block sums its rows into
// one partial of 9 * narrow + 1 values per wide channel, so more blocks mean
// more partials to add; two keep 16 warps of 256 threads on each SM.
constexpr int kGradientBlocksPerSm = 2;
// The partials are added in two fixed-order stages: kSumGroups runs of blocks
// in parallel, then the groups (see group_partials_kernel).
constexpr int kSumGroups = 16;

// Where w[j][tap][i] (wide channel j, narrow channel i) lies in the stored
// weights [O][3][3][C], for either side being the output.
struct WeightStrides {
  int64_t wide, tap, narrow;
};

// The narrow tensor's rows h-1, h, h+1 of the image starting at pixel
// `image_base`, columns -1 .. W, as patch[r][col] = the pixel's narrow
// channels, padded with zeros to four (zeros outside the image too): one
// 16-byte shared load gives a pixel's channels.
template <int kNarrow>
__device__ void load_patch(const float* __restrict__ narrow, float4* patch, int64_t image_base,
                           int h, int H, int W) {
  const int count = 3 * (W + 2);
  for (int e = threadIdx.x; e < count; e += blockDim.x) {
    const int col = e % (W + 2), r = e / (W + 2);
    const int hh = h + r - 1, ww = col - 1;
    float v[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    if (hh >= 0 && hh < H && ww >= 0 && ww < W) {
      const float* at = narrow + (image_base + int64_t(hh) * W + ww) * kNarrow;
#pragma unroll
      for (int i = 0; i < kNarrow; ++i) v[i] = at[i];
    }
    patch[e] = make_float4(v[0], v[1], v[2], v[3]);
  }
}

__device__ inline float channel(const float4& p, int i) {
  return i == 0 ? p.x : i == 1 ? p.y : i == 2 ? p.z : p.w;
}

// The patch entry tap (ky, kx) pairs with at column x: the narrow tensor at
// p + sign * (ky - 1, kx - 1).
template <int kSign>
__device__ inline const float4& tap_of(const float4* patch, int W, int x, int ky, int kx) {
  const int r = kSign > 0 ? ky : 2 - ky, c = kSign > 0 ? kx : 2 - kx;
  return patch[r * (W + 2) + x + c];
}

// out[p][j] = bias[j] + sum over taps and i of w[j][tap][i] * in[p + sign * shift][i].
// Each thread owns two wide channels, so that every shared load feeds both.
template <int kNarrow, int kSign>
__global__ void __launch_bounds__(kWideThreads)
    widen_kernel(const float* __restrict__ in, const float* __restrict__ w, WeightStrides ws,
                 const float* __restrict__ bias, bool relu, float* __restrict__ out, int H, int W,
                 int wide) {
  extern __shared__ float4 patch[];
  const int row = blockIdx.x;  // n * H + h
  const int h = row % H;
  load_patch<kNarrow>(in, patch, int64_t(row - h) * W, h, H, W);
  __syncthreads();
  for (int j0 = threadIdx.x; j0 < wide; j0 += 2 * blockDim.x) {
    const int j1 = j0 + blockDim.x;
    const bool second = j1 < wide;
    float w0[9][kNarrow], w1[9][kNarrow];
#pragma unroll
    for (int t = 0; t < 9; ++t) {
#pragma unroll
      for (int i = 0; i < kNarrow; ++i) {
        w0[t][i] = w[j0 * ws.wide + t * ws.tap + i * ws.narrow];
        w1[t][i] = second ? w[j1 * ws.wide + t * ws.tap + i * ws.narrow] : 0.0f;
      }
    }
    const float b0 = bias ? bias[j0] : 0.0f;
    const float b1 = bias && second ? bias[j1] : 0.0f;
    float* o = out + int64_t(row) * W * wide;
    for (int x = 0; x < W; ++x) {
      // One partial sum per kernel row: three independent FMA chains.
      float s0[3] = {b0, 0.0f, 0.0f}, s1[3] = {b1, 0.0f, 0.0f};
#pragma unroll
      for (int ky = 0; ky < 3; ++ky) {
#pragma unroll
        for (int kx = 0; kx < 3; ++kx) {
          const float4 p = tap_of<kSign>(patch, W, x, ky, kx);
#pragma unroll
          for (int i = 0; i < kNarrow; ++i) {
            s0[ky] = fmaf(w0[ky * 3 + kx][i], channel(p, i), s0[ky]);
            s1[ky] = fmaf(w1[ky * 3 + kx][i], channel(p, i), s1[ky]);
          }
        }
      }
      const float y0 = s0[0] + s0[1] + s0[2], y1 = s1[0] + s1[1] + s1[2];
      o[int64_t(x) * wide + j0] = relu ? fmaxf(y0, 0.0f) : y0;
      if (second) o[int64_t(x) * wide + j1] = relu ? fmaxf(y1, 0.0f) : y1;
    }
  }
}

// Per block: partial[block][tap * kNarrow + i][j] = sum over its rows' pixels p
// of wide[p][j] * narrow[p + sign * shift][i]; partial[block][9 * kNarrow][j]
// = sum of wide[p][j]; narrow_sums[block][i] = sum of narrow[p][i].
// A row's wide values are loaded into registers kChunk at a time before they
// are used (and the first chunk before the patch is loaded), so that each
// warp has many loads in flight: one at a time left HBM mostly idle (run 45).
template <int kNarrow, int kSign>
__global__ void __launch_bounds__(kMaxGradientWide)
    gradient_partials_kernel(const float* __restrict__ wide_t, const float* __restrict__ narrow_t,
                             int rows, int H, int W, int wide, float* __restrict__ partials,
                             float* __restrict__ narrow_sums) {
  constexpr int kChunk = 16;
  extern __shared__ float4 patch[];
  constexpr int kSlots = 9 * kNarrow + 1;
  const int j = threadIdx.x;
  const bool owner = j < wide;
  float acc[kSlots];
#pragma unroll
  for (int s = 0; s < kSlots; ++s) acc[s] = 0.0f;
  float narrow_sum = 0.0f;
  for (int row = blockIdx.x; row < rows; row += gridDim.x) {
    const int h = row % H;
    const float* src = wide_t + int64_t(row) * W * wide + j;
    float v[kChunk];
#pragma unroll
    for (int k = 0; k < kChunk; ++k) v[k] = owner && k < W ? src[int64_t(k) * wide] : 0.0f;
    __syncthreads();  // the previous row's patch is no longer read
    load_patch<kNarrow>(narrow_t, patch, int64_t(row - h) * W, h, H, W);
    __syncthreads();
    if (j < kNarrow) {
      for (int x = 0; x < W; ++x) narrow_sum += channel(patch[(W + 2) + x + 1], j);
    }
    for (int x0 = 0; x0 < W; x0 += kChunk) {
      if (x0 > 0) {
#pragma unroll
        for (int k = 0; k < kChunk; ++k) {
          v[k] = owner && x0 + k < W ? src[int64_t(x0 + k) * wide] : 0.0f;
        }
      }
#pragma unroll
      for (int k = 0; k < kChunk; ++k) {
        const int x = x0 + k;
        if (x >= W) break;
        acc[kSlots - 1] += v[k];
#pragma unroll
        for (int ky = 0; ky < 3; ++ky) {
#pragma unroll
          for (int kx = 0; kx < 3; ++kx) {
            const float4 p = tap_of<kSign>(patch, W, x, ky, kx);
#pragma unroll
            for (int i = 0; i < kNarrow; ++i) {
              acc[(ky * 3 + kx) * kNarrow + i] =
                  fmaf(v[k], channel(p, i), acc[(ky * 3 + kx) * kNarrow + i]);
            }
          }
        }
      }
    }
  }
  if (owner) {
#pragma unroll
    for (int s = 0; s < kSlots; ++s) {
      partials[(int64_t(blockIdx.x) * kSlots + s) * wide + j] = acc[s];
    }
  }
  if (j < kNarrow) narrow_sums[blockIdx.x * kNarrow + j] = narrow_sum;
}

// groups[g][e] = sum of partials[b][e] over the g-th of `group_count` equal
// runs of blocks, in block order: the first of two fixed-order stages that
// add the gradient blocks' partials (one thread per entry summing all of them
// serially used a few SMs and took longer than the partials themselves).
__global__ void group_partials_kernel(const float* __restrict__ partials, int blocks,
                                      int64_t entries, int group_count,
                                      float* __restrict__ groups) {
  const int64_t e = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  if (e >= entries) return;
  const int g = blockIdx.y;
  const int first = int(int64_t(blocks) * g / group_count);
  const int last = int(int64_t(blocks) * (g + 1) / group_count);
  float total = 0.0f;
  for (int b = first; b < last; ++b) total += partials[int64_t(b) * entries + e];
  groups[int64_t(g) * entries + e] = total;
}

// dw (stored [O][3][3][C]) and db from the groups' sums, added in group
// order (deterministic). narrow_is_input: C is the narrow side (conv1), so
// the wide channel j is the output o and db sums the wide side; otherwise
// (conv5) o is the narrow channel i and db sums the narrow side.
__global__ void gradient_sum_kernel(const float* __restrict__ groups, int group_count,
                                    const float* __restrict__ narrow_sums, int blocks, int narrow,
                                    int wide, bool narrow_is_input, float* __restrict__ dw,
                                    float* __restrict__ db) {
  const int slots = 9 * narrow + 1;
  const int weights = 9 * narrow * wide;
  const int outputs = narrow_is_input ? wide : narrow;
  for (int e = blockIdx.x * blockDim.x + threadIdx.x; e < weights + outputs;
       e += gridDim.x * blockDim.x) {
    float total = 0.0f;
    if (e < weights) {
      const int C = narrow_is_input ? narrow : wide;
      const int c = e % C, tap = (e / C) % 9, o = e / (9 * C);
      const int i = narrow_is_input ? c : o, j = narrow_is_input ? o : c;
      for (int g = 0; g < group_count; ++g) {
        total += groups[(int64_t(g) * slots + tap * narrow + i) * wide + j];
      }
      dw[e] = total;
    } else if (narrow_is_input) {
      const int j = e - weights;
      for (int g = 0; g < group_count; ++g)
        total += groups[(int64_t(g) * slots + slots - 1) * wide + j];
      db[j] = total;
    } else {
      const int i = e - weights;
      for (int b = 0; b < blocks; ++b) total += narrow_sums[b * narrow + i];
      db[i] = total;
    }
  }
}

size_t patch_bytes(int W) {
  return size_t(3) * size_t(W + 2) * sizeof(float4);
}

unsigned round_to_warps(int threads) { return unsigned((threads + 31) / 32 * 32); }

// Calls f(std::integral_constant<int, n>) for the narrow channel count n.
template <class F>
void with_narrow(int64_t n, F&& f) {
  switch (n) {
    case 1:
      return f(std::integral_constant<int, 1>{});
    case 2:
      return f(std::integral_constant<int, 2>{});
    case 3:
      return f(std::integral_constant<int, 3>{});
    default:
      return f(std::integral_constant<int, 4>{});
  }
}

template <int kSign>
void widen(cae_v3::Context& ctx, const cae_plugin::ConvDims& d, int narrow, int wide,
           const float* in, const float* w, WeightStrides ws, const float* bias, bool relu,
           float* out) {
  const unsigned threads = std::min<unsigned>(kWideThreads, round_to_warps((wide + 1) / 2));
  with_narrow(narrow, [&](auto n) {
    constexpr int kNarrow = decltype(n)::value;
    widen_kernel<kNarrow, kSign>
        <<<unsigned(d.N * d.H), threads, patch_bytes(int(d.W)), ctx.stream>>>(
            in, w, ws, bias, relu, out, int(d.H), int(d.W), wide);
  });
  cae_v3::check_launch("v4 narrow widen_kernel");
}

// dw and db of a layer whose narrow side is `narrow_t` (x for conv1, dy for
// conv5) and wide side `wide_t` (dy for conv1, x for conv5).
template <int kSign>
void weight_gradient(cae_v3::Context& ctx, const cae_plugin::ConvDims& d, int narrow, int wide,
                     const float* wide_t, const float* narrow_t, bool narrow_is_input, float* dw,
                     float* db) {
  const int rows = int(d.N * d.H);
  const int blocks = std::max(1, std::min(rows, ctx.multiprocessors * kGradientBlocksPerSm));
  const int slots = 9 * narrow + 1;
  const int64_t entries = int64_t(slots) * wide;
  const int group_count = std::min(blocks, kSumGroups);
  float* partials = ctx.scratch.get(size_t(blocks) * size_t(entries + narrow) +
                                    size_t(group_count) * size_t(entries));
  float* narrow_sums = partials + size_t(blocks) * size_t(entries);
  float* groups = narrow_sums + size_t(blocks) * size_t(narrow);
  with_narrow(narrow, [&](auto n) {
    constexpr int kNarrow = decltype(n)::value;
    gradient_partials_kernel<kNarrow, kSign>
        <<<unsigned(blocks), round_to_warps(wide), patch_bytes(int(d.W)), ctx.stream>>>(
            wide_t, narrow_t, rows, int(d.H), int(d.W), wide, partials, narrow_sums);
  });
  cae_v3::check_launch("v4 narrow gradient_partials_kernel");
  group_partials_kernel<<<dim3(unsigned((entries + 255) / 256), unsigned(group_count)), 256, 0,
                          ctx.stream>>>(partials, blocks, entries, group_count, groups);
  cae_v3::check_launch("v4 narrow group_partials_kernel");
  const int outputs = 9 * narrow * wide + (narrow_is_input ? wide : narrow);
  gradient_sum_kernel<<<unsigned((outputs + 255) / 256), 256, 0, ctx.stream>>>(
      groups, group_count, narrow_sums, blocks, narrow, wide, narrow_is_input, dw, db);
  cae_v3::check_launch("v4 narrow gradient_sum_kernel");
}

bool shape_fits(const cae_plugin::ConvDims& d) {
  return d.K == 3 && d.N * d.H * d.W > 0 && d.W <= kMaxRowPixels &&
         d.N * d.H < (int64_t(1) << 31) &&
         d.N * d.H * d.W * std::max(d.C, d.O) < (int64_t(1) << 31);
}

}  // namespace

bool narrow_direct_forward_fits(const cae_plugin::ConvDims& d) {
  return shape_fits(d) && d.C <= kMaxNarrow;
}

bool narrow_direct_backward_fits(const cae_plugin::ConvDims& d, bool wants_dx) {
  if (!shape_fits(d)) return false;
  if (d.C <= kMaxNarrow && !wants_dx && d.O <= kMaxGradientWide) return true;
  return d.O <= kMaxNarrow && d.C <= kMaxGradientWide;
}

void narrow_conv2d_forward(cae_v3::Context& ctx, const cae_plugin::ConvDims& d, const float* x,
                           const float* w, const float* b, float* y, bool relu) {
  const int narrow = int(d.C), wide = int(d.O);
  // w[o][tap][c]: wide channel o, narrow channel c.
  const WeightStrides ws{9 * int64_t(narrow), narrow, 1};
  widen<+1>(ctx, d, narrow, wide, x, w, ws, b, relu, y);
}

void narrow_conv2d_backward(cae_v3::Context& ctx, const cae_plugin::ConvDims& d, const float* x,
                            const float* w, const float* dy, float* dx, float* dw, float* db) {
  if (d.C <= kMaxNarrow && !dx && d.O <= kMaxGradientWide) {
    // conv1: dy is wide; dw[o][tap][c] pairs dy at p with x at p + shift.
    weight_gradient<+1>(ctx, d, int(d.C), int(d.O), dy, x, /*narrow_is_input=*/true, dw, db);
    return;
  }
  // conv5: x is wide. dx[p][c] = sum of w[o][tap][c] * dy[p - shift][o]:
  // the flipped taps, with the stored weights read as w[c][tap][o].
  const int narrow = int(d.O), wide = int(d.C);
  if (dx) {
    const WeightStrides ws{1, wide, 9 * int64_t(wide)};
    widen<-1>(ctx, d, narrow, wide, dy, w, ws, nullptr, false, dx);
  }
  // dw[o][tap][c] pairs x at q with dy at q - shift.
  weight_gradient<-1>(ctx, d, narrow, wide, x, dy, /*narrow_is_input=*/false, dw, db);
}

}  // namespace cae_v4
