// The operands of v4's implicit GEMMs: each reads FP32 activations (or BF16
// prepared weights) straight from their tensors and hands the GEMM one
// 16-byte chunk, 8 BF16 values of one tile row along K, at a time. No
// im2col matrix is ever written: the gather is the operand load.
//
// Every operand has the same two-step interface:
//   Row row(int r)               what the thread needs to know about GEMM row r
//                                (its pixel, or its tap and channel), computed
//                                once before the K loop
//   Raw load(Row, int k0)        values k0 .. k0 + 7 of that row as loaded, with
//                                zeros outside the matrix and the image
//   static uint4 pack(Raw)       the same 8 values as BF16 (16 bytes)
// Loading and packing are apart so that the GEMM can issue the loads of one K
// tile and convert them only an iteration later, when they have arrived.
//
// Convolutions are "same" convolutions (stride 1, pad K / 2) over NHWC
// tensors; tap t = kh * K + kw shifts a pixel by (kh - K/2, kw - K/2), times
// `sign` (-1 for the data gradient, which gathers dy the other way).
#pragma once

#include <cuda_bf16.h>

#include <cstdint>

namespace cae_v4 {

__device__ __forceinline__ uint32_t pack_bf16(float lo, float hi) {
  const __nv_bfloat162 v = __floats2bfloat162_rn(lo, hi);
  return *reinterpret_cast<const uint32_t*>(&v);
}

// Eight FP32 values of one chunk, as loaded.
struct Floats8 {
  float v[8];
};

__device__ __forceinline__ uint4 pack_chunk(const Floats8& f) {
  return make_uint4(pack_bf16(f.v[0], f.v[1]), pack_bf16(f.v[2], f.v[3]),
                    pack_bf16(f.v[4], f.v[5]), pack_bf16(f.v[6], f.v[7]));
}

// Raw and pack of the operands that read FP32 tensors (a macro, not a base
// class: the operands stay aggregates, built with braces).
#define CAE_V4_FP32_OPERAND \
  using Raw = Floats8;      \
  __device__ static uint4 pack(const Raw& raw) { return pack_chunk(raw); }

// The image geometry every convolution operand shares.
struct ConvGeometry {
  int H, W, K, pixels;  // pixels = N * H * W
  __device__ bool inside(int h, int w) const { return h >= 0 && h < H && w >= 0 && w < W; }
};

// Rows = output pixels, k = tap * channels + c: the im2col matrix of `src`
// ([pixels][channels]), gathered on the fly.
struct GatheredPixels {
  CAE_V4_FP32_OPERAND

  const float* src;
  ConvGeometry g;
  int channels, k_total, sign;

  struct Row {
    int p, h, w;
  };
  __device__ Row row(int r) const {
    Row out{r, -1 << 20, 0};
    if (r < g.pixels) {
      out.w = r % g.W;
      out.h = (r / g.W) % g.H;
    }
    return out;
  }
  __device__ Floats8 load(const Row& r, int k0) const {
    Floats8 out;
    float(&v)[8] = out.v;
    if (channels % 8 == 0) {
      // The 8 values are channels c0 .. c0 + 7 of one tap: two 16-byte loads.
      const int tap = k0 / channels, c0 = k0 - tap * channels;
      const int dh = sign * (tap / g.K - g.K / 2), dw = sign * (tap % g.K - g.K / 2);
      if (k0 < k_total && g.inside(r.h + dh, r.w + dw)) {
        const float4* at = reinterpret_cast<const float4*>(
            src + int64_t(r.p + dh * g.W + dw) * channels + c0);
        const float4 a = __ldg(at), b = __ldg(at + 1);
        v[0] = a.x, v[1] = a.y, v[2] = a.z, v[3] = a.w;
        v[4] = b.x, v[5] = b.y, v[6] = b.z, v[7] = b.w;
      } else {
#pragma unroll
        for (int j = 0; j < 8; ++j) v[j] = 0.0f;
      }
    } else {
#pragma unroll
      for (int j = 0; j < 8; ++j) {
        const int k = k0 + j, tap = k / channels, c = k - tap * channels;
        const int dh = sign * (tap / g.K - g.K / 2), dw = sign * (tap % g.K - g.K / 2);
        v[j] = (k < k_total && g.inside(r.h + dh, r.w + dw))
                   ? __ldg(src + int64_t(r.p + dh * g.W + dw) * channels + c)
                   : 0.0f;
      }
    }
    return out;
  }
};

// Rows of a BF16 matrix prepared with rows and K padded with zeros to whole
// tiles (the weights): one 16-byte load, no checks.
struct PreparedRows {
  using Raw = uint4;
  __device__ static uint4 pack(const Raw& raw) { return raw; }
  const __nv_bfloat16* data;
  int ld;  // padded K
  struct Row {
    const __nv_bfloat16* at;
  };
  __device__ Row row(int r) const { return Row{data + int64_t(r) * ld}; }
  __device__ uint4 load(const Row& r, int k0) const {
    return __ldg(reinterpret_cast<const uint4*>(r.at + k0));
  }
};

// Rows = channels of `src` ([pixels][channels]), k = pixel: the transposed
// activations (dy^T) of a weight gradient. The 8 values of a chunk are one
// channel of 8 pixels; the lanes of a warp take consecutive channels, so each
// of the 8 loads is one coalesced row segment, never a strided column read.
struct ChannelsOverPixels {
  CAE_V4_FP32_OPERAND

  const float* src;
  int channels, pixels;
  struct Row {
    int c;
    bool valid;
  };
  __device__ Row row(int r) const { return Row{r, r < channels}; }
  __device__ Floats8 load(const Row& r, int k0) const {
    Floats8 out;
    float(&v)[8] = out.v;
#pragma unroll
    for (int j = 0; j < 8; ++j) {
      v[j] = (r.valid && k0 + j < pixels) ? __ldg(src + int64_t(k0 + j) * channels + r.c) : 0.0f;
    }
    return out;
  }
};

// Rows = (tap, c), k = pixel: the transposed im2col matrix of src for a weight
// gradient, gathered on the fly like GatheredPixels (rows are consecutive
// channels of one tap, so the warp's loads stay coalesced). sign -1 gathers dy
// instead of x (the weight gradient gathers whichever has fewer channels).
struct TapsOverPixels {
  CAE_V4_FP32_OPERAND

  const float* src;
  ConvGeometry g;
  int channels, rows, sign;  // rows = K * K * channels
  struct Row {
    int c, dh, dw;
    bool valid;
  };
  __device__ Row row(int r) const {
    Row out{0, 0, 0, r < rows};
    if (out.valid) {
      const int tap = r / channels;
      out.c = r - tap * channels;
      out.dh = sign * (tap / g.K - g.K / 2);
      out.dw = sign * (tap % g.K - g.K / 2);
    }
    return out;
  }
  __device__ Floats8 load(const Row& r, int k0) const {
    Floats8 out;
    float(&v)[8] = out.v;
    if (g.W % 8 == 0 && k0 + 8 <= g.pixels) {
      // 8 pixels of one image row: one bounds check for the row, one per column.
      const int w0 = k0 % g.W, h = (k0 / g.W) % g.H;
      const bool row_inside = r.valid && h + r.dh >= 0 && h + r.dh < g.H;
      const float* base = src + int64_t(k0 + r.dh * g.W + r.dw) * channels + r.c;
#pragma unroll
      for (int j = 0; j < 8; ++j) {
        const int w = w0 + j + r.dw;
        v[j] = (row_inside && w >= 0 && w < g.W) ? __ldg(base + int64_t(j) * channels) : 0.0f;
      }
    } else {
#pragma unroll
      for (int j = 0; j < 8; ++j) {
        const int p = k0 + j, w = p % g.W, h = (p / g.W) % g.H;
        v[j] = (r.valid && p < g.pixels && g.inside(h + r.dh, w + r.dw))
                   ? __ldg(src + int64_t(p + r.dh * g.W + r.dw) * channels + r.c)
                   : 0.0f;
      }
    }
    return out;
  }
};

}  // namespace cae_v4
