// The tiled 3x3 convolution shared by conv2d_forward and the dx part of
// conv2d_backward.
//
// One block of 16x16 threads computes a 16x16 output tile of one image for a
// group of kGroup output channels: one pixel and kGroup accumulators per
// thread. Input channels are consumed kConvChunk at a time: their 18x18 halo
// tiles (the tile plus the 1-pixel "same" padding ring, zero outside the
// image) and the group's 3x3 weights are staged in shared memory, where every
// input value is reused by kGroup output channels and every weight by 256
// pixels. The next chunk is fetched into registers while the current one is
// computed, so global latency overlaps the arithmetic.
//
// dx of a convolution is itself a convolution of dy (the gradient with respect
// to the outputs) with the weights transposed in (out, in) and flipped in
// space:  dx[n,c,y,x] = sum_o sum_kh,kw dy[n,o,y+1-kh,x+1-kw] * w[o,c,kh,kw].
// kTransposed selects that reading of the same weight tensor while staging,
// so one kernel serves both.
//
// Deterministic: every output is bias + a fixed-order sum over (channel, tap).
#pragma once

#include <cstddef>

namespace v1 {

constexpr int kConvKernel = 3;                          // K: v1 implements 3x3 only
constexpr int kConvTaps = kConvKernel * kConvKernel;    // 9
constexpr int kConvTile = 16;                           // output tile edge
constexpr int kConvThreads = kConvTile * kConvTile;     // one output pixel per thread
constexpr int kHaloTile = kConvTile + kConvKernel - 1;  // 18
constexpr int kHaloTilePixels = kHaloTile * kHaloTile;  // 324
constexpr int kConvChunk = 8;                           // input channels per shared-memory stage
constexpr int kConvBlocksPerMultiprocessor = 2;         // <= 128 registers: no spills

struct ConvTileArgs {
  const float* in;       // [N, in_channels, H, W]
  const float* weights;  // forward: [out, in, 3, 3]; transposed: [in, out, 3, 3]
  const float* bias;     // [out_channels], or nullptr for none
  float* out;            // [N, out_channels, H, W]
  int batch_offset;      // image of blockIdx.z == 0 (launches are split at 65535 blocks in z)
  int in_channels;
  int out_channels;
  int height;
  int width;
  int relu;  // 1: out = max(out, 0)
};

namespace conv_tile {

// Input staging. Thread t owns pixels t and t + 256 (when < 324) of the 18x18
// halo tile and loads them for every channel of the chunk, so its image
// offsets are computed once per block, not per element.
constexpr int kSecondPixels = kHaloTilePixels - kConvThreads;  // 68 threads own two pixels

struct HaloPixels {
  int offset[2];   // gy * W + gx of the thread's pixels (H * W < 2^31 is checked)
  bool inside[2];  // in the image (else the padding ring: zero)
};

__device__ __forceinline__ HaloPixels locate_halo_pixels(const ConvTileArgs& a, int y0, int x0,
                                                         int tid) {
  HaloPixels h;
#pragma unroll
  for (int s = 0; s < 2; ++s) {
    const int p = tid + s * kConvThreads;
    const int r = p / kHaloTile;
    const int col = p - r * kHaloTile;
    const int gy = y0 - 1 + r;
    const int gx = x0 - 1 + col;
    h.inside[s] = p < kHaloTilePixels && gy >= 0 && gy < a.height && gx >= 0 && gx < a.width;
    h.offset[s] = h.inside[s] ? gy * a.width + gx : 0;
  }
  return h;
}

// The thread's pixels of input channels [c0, c0 + kConvChunk) into registers
// (zero outside the image or past the last channel).
__device__ __forceinline__ void fetch_input(const ConvTileArgs& a, const float* image, size_t plane,
                                            const HaloPixels& h, int c0,
                                            float (&regs)[2][kConvChunk]) {
#pragma unroll
  for (int cc = 0; cc < kConvChunk; ++cc) {
    const bool channel = c0 + cc < a.in_channels;
    const float* channel_image = image + static_cast<size_t>(c0 + cc) * plane;
#pragma unroll
    for (int s = 0; s < 2; ++s) {
      regs[s][cc] = (channel && h.inside[s]) ? __ldg(channel_image + h.offset[s]) : 0.0f;
    }
  }
}

// s_in is [kConvChunk][18][18].
__device__ __forceinline__ void store_input(const float (&regs)[2][kConvChunk], int tid,
                                            float* s_in) {
#pragma unroll
  for (int cc = 0; cc < kConvChunk; ++cc) {
    s_in[cc * kHaloTilePixels + tid] = regs[0][cc];
    if (tid < kSecondPixels) s_in[cc * kHaloTilePixels + kConvThreads + tid] = regs[1][cc];
  }
}

// Weight staging. The chunk's weights are `kRuns` runs that are contiguous in
// global memory; a team of threads reads each run (consecutive threads,
// consecutive floats), each thread the elements part, part + team, ...
//  - Forward, w[o][c][tap]: one run per output channel og of the group,
//    72 floats (the chunk's 8 channels x 9 taps) from w[o0 + og][c0][0].
//  - Transposed (dx): the forward tensor w[ci][o][tap] where ci (a forward
//    output channel) is summed over here and o (a forward input channel) is
//    produced: one run per staged channel cc, 9 * kGroup floats from
//    w[c0 + cc][o0][0]; the tap is flipped (tap -> 8 - tap).
// Shared memory holds them as [cc][tap][og], so one float4 read gives one tap
// of four output channels. Out-of-range channels stage zeros (never garbage:
// an uninitialised NaN times a zero input would still poison the sum).
template <int kGroup, bool kTransposed>
struct WeightStage {
  static constexpr int kElems = kConvChunk * kConvTaps * kGroup;
  static constexpr int kRuns = kTransposed ? kConvChunk : kGroup;
  static constexpr int kRunLength = kElems / kRuns;
  static constexpr int kTeam = kConvThreads / kRuns;
  static constexpr int kPerThread = (kRunLength + kTeam - 1) / kTeam;
  static_assert(kConvThreads % kRuns == 0, "teams must tile the block");
};

template <int kGroup, bool kTransposed>
__device__ __forceinline__ void fetch_weights(
    const ConvTileArgs& a, int o0, int c0, int tid,
    float (&regs)[WeightStage<kGroup, kTransposed>::kPerThread]) {
  using Stage = WeightStage<kGroup, kTransposed>;
  const int run = tid / Stage::kTeam;
  const int part = tid % Stage::kTeam;
  // The run's channel must exist, and elements past the end of the channel
  // range (the last chunk, or the last group) are zero.
  bool run_exists;
  size_t run_start;
  int limit;  // elements of the run that exist
  if (!kTransposed) {
    const int o = o0 + run;
    run_exists = o < a.out_channels;
    run_start = (static_cast<size_t>(o) * a.in_channels + c0) * kConvTaps;
    limit = (a.in_channels - c0) * kConvTaps;
  } else {
    const int ci = c0 + run;
    run_exists = ci < a.in_channels;
    run_start = (static_cast<size_t>(ci) * a.out_channels + o0) * kConvTaps;
    limit = (a.out_channels - o0) * kConvTaps;
  }
#pragma unroll
  for (int i = 0; i < Stage::kPerThread; ++i) {
    const int rest = part + i * Stage::kTeam;
    regs[i] = (run_exists && rest < Stage::kRunLength && rest < limit)
                  ? __ldg(a.weights + run_start + rest)
                  : 0.0f;
  }
}

template <int kGroup, bool kTransposed>
__device__ __forceinline__ void store_weights(
    const float (&regs)[WeightStage<kGroup, kTransposed>::kPerThread], int tid, float* s_w) {
  using Stage = WeightStage<kGroup, kTransposed>;
  const int run = tid / Stage::kTeam;
  const int part = tid % Stage::kTeam;
#pragma unroll
  for (int i = 0; i < Stage::kPerThread; ++i) {
    const int rest = part + i * Stage::kTeam;
    if (rest < Stage::kRunLength) {
      if (!kTransposed) {
        s_w[rest * kGroup + run] = regs[i];  // rest = cc * 9 + tap, run = og
      } else {
        const int og = rest / kConvTaps;  // rest = og * 9 + tap, run = cc
        const int tap = rest - og * kConvTaps;
        s_w[(run * kConvTaps + (kConvTaps - 1 - tap)) * kGroup + og] = regs[i];
      }
    }
  }
}

// acc[og] += sum over the staged channels and the 9 taps. `valid` (uniform
// across the block) is how many of the kConvChunk staged channels exist.
template <int kGroup>
__device__ __forceinline__ void accumulate(const float* s_in, const float* s_w, int valid, int px,
                                           int py, float (&acc)[kGroup]) {
#pragma unroll
  for (int cc = 0; cc < kConvChunk; ++cc) {
    if (cc < valid) {
      const float* window = s_in + cc * kHaloTilePixels + py * kHaloTile + px;
      float v[kConvTaps];
#pragma unroll
      for (int kh = 0; kh < kConvKernel; ++kh) {
#pragma unroll
        for (int kw = 0; kw < kConvKernel; ++kw)
          v[kh * kConvKernel + kw] = window[kh * kHaloTile + kw];
      }
      const float4* w4 = reinterpret_cast<const float4*>(s_w + cc * kConvTaps * kGroup);
#pragma unroll
      for (int tap = 0; tap < kConvTaps; ++tap) {
#pragma unroll
        for (int q = 0; q < kGroup / 4; ++q) {
          const float4 w = w4[tap * (kGroup / 4) + q];
          acc[4 * q + 0] = fmaf(v[tap], w.x, acc[4 * q + 0]);
          acc[4 * q + 1] = fmaf(v[tap], w.y, acc[4 * q + 1]);
          acc[4 * q + 2] = fmaf(v[tap], w.z, acc[4 * q + 2]);
          acc[4 * q + 3] = fmaf(v[tap], w.w, acc[4 * q + 3]);
        }
      }
    }
  }
}

}  // namespace conv_tile

// Grid: (ceil(W/16), ceil(H/16), images * ceil(out_channels/kGroup)); block (16, 16).
template <int kGroup, bool kTransposed>
__global__ void __launch_bounds__(kConvThreads, kConvBlocksPerMultiprocessor)
    conv_tile_kernel(ConvTileArgs a) {
  static_assert(kGroup % 4 == 0, "weights are read as float4");
  using Weights = conv_tile::WeightStage<kGroup, kTransposed>;
  __shared__ __align__(16) float s_in[kConvChunk * kHaloTilePixels];
  __shared__ __align__(16) float s_w[Weights::kElems];

  const int tid = threadIdx.y * kConvTile + threadIdx.x;
  // The pixel of this thread. A warp takes rows r and r + 8 (not r and r + 1):
  // its two half-warps then read shared memory 8 * 18 = 144 words apart, i.e.
  // 16 banks apart, so the 3x3 window reads are free of bank conflicts.
  const int lane = tid % 32;
  const int warp = tid / 32;
  const int px = lane % kConvTile;
  const int py = warp + (kConvThreads / 32) * (lane / kConvTile);

  const int groups = (a.out_channels + kGroup - 1) / kGroup;
  const int n = a.batch_offset + static_cast<int>(blockIdx.z) / groups;
  const int o0 = (static_cast<int>(blockIdx.z) % groups) * kGroup;
  const int x0 = blockIdx.x * kConvTile;
  const int y0 = blockIdx.y * kConvTile;
  const size_t plane = static_cast<size_t>(a.height) * a.width;
  const float* image = a.in + static_cast<size_t>(n) * a.in_channels * plane;

  float acc[kGroup];
#pragma unroll
  for (int og = 0; og < kGroup; ++og) {
    const int o = o0 + og;
    acc[og] = (a.bias != nullptr && o < a.out_channels) ? __ldg(a.bias + o) : 0.0f;
  }

  const conv_tile::HaloPixels halo = conv_tile::locate_halo_pixels(a, y0, x0, tid);
  float input_regs[2][kConvChunk];
  float weight_regs[Weights::kPerThread];
  conv_tile::fetch_input(a, image, plane, halo, 0, input_regs);
  conv_tile::fetch_weights<kGroup, kTransposed>(a, o0, 0, tid, weight_regs);

  for (int c0 = 0; c0 < a.in_channels; c0 += kConvChunk) {
    __syncthreads();  // everyone has finished reading the previous stage
    conv_tile::store_input(input_regs, tid, s_in);
    conv_tile::store_weights<kGroup, kTransposed>(weight_regs, tid, s_w);
    __syncthreads();  // the stage is complete
    const int next = c0 + kConvChunk;
    if (next < a.in_channels) {
      conv_tile::fetch_input(a, image, plane, halo, next, input_regs);
      conv_tile::fetch_weights<kGroup, kTransposed>(a, o0, next, tid, weight_regs);
    }
    const int valid = a.in_channels - c0 < kConvChunk ? a.in_channels - c0 : kConvChunk;
    conv_tile::accumulate<kGroup>(s_in, s_w, valid, px, py, acc);
  }

  const int oy = y0 + py;
  const int ox = x0 + px;
  if (oy < a.height && ox < a.width) {
    float* out = a.out + static_cast<size_t>(n) * a.out_channels * plane +
                 static_cast<size_t>(oy) * a.width + ox;
#pragma unroll
    for (int og = 0; og < kGroup; ++og) {
      const int o = o0 + og;
      if (o < a.out_channels) {
        const float value = a.relu ? fmaxf(acc[og], 0.0f) : acc[og];
        out[static_cast<size_t>(o) * plane] = value;
      }
    }
  }
}

}  // namespace v1
