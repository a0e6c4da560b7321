// The operands of v4's implicit GEMMs (v4_igemm.cuh): BF16 NHWC tensors read
// straight into shared memory by cp.async, 16 bytes (8 BF16 values) per copy,
// with no register staging and no conversion on the way. No im2col matrix is
// ever written: the gather is the copy.
//
// A tile of R rows (the GEMM's M or N) by 64 values of K is cut into R * 8
// chunks of 16 bytes. Where the 8 values of a chunk run decides the tile's
// orientation, and so the wgmma transpose flag:
//   K-major  (kMnMajor false): a chunk is 8 consecutive k of one row. Used by
//            the forward and data-gradient GEMMs, whose K is (tap, channel):
//            a chunk is 8 channels of one shifted pixel.
//   MN-major (kMnMajor true):  a chunk is 8 consecutive rows at one k. Used by
//            the weight gradient, whose K is the pixel: a chunk is again 8
//            channels of one (shifted) pixel, so no GEMM reads a strided
//            column: every copy is 16 contiguous bytes of an NHWC tensor.
// Chunk coordinates: (line, part) = (row, k / 8) when K-major and
// (k, row / 8) when MN-major; the loader maps threads to them.
//
// Each operand gives:
//   Slot slot(int line, int part, int origin)   what stays fixed for this chunk
//                                               position over the K loop
//                                               (origin: the tile's first row)
//   const void* source(const Slot&, int k_tile, bool& valid)
//                                               the chunk's address in K tile
//                                               k_tile; valid false: zeros
//   kCacheInL1                                  whether the copy keeps the line
//                                               in L1 (gathers re-read each
//                                               pixel once per tap)
// Every channel count is a multiple of 8 (the host sends narrower layers to
// v3's TF32 convolutions), so a chunk never straddles two taps or pixels.
// Convolutions are "same" (stride 1, pad K / 2); tap t shifts a pixel by
// sign * (t / K - K / 2, t % K - K / 2); `sign` -1 gathers dy for gradients.
#pragma once

#include <cuda_bf16.h>

#include <cstdint>

#include "fast_divide.cuh"

namespace cae_v4 {

using cae_cuda::FastDivide;

__device__ __forceinline__ uint32_t pack_bf16(float lo, float hi) {
  const __nv_bfloat162 v = __floats2bfloat162_rn(lo, hi);
  return *reinterpret_cast<const uint32_t*>(&v);
}

// The image geometry every convolution operand shares; the divisions of the
// index decoding by multiply-shift (they run once per chunk and K tile).
struct ConvGeometry {
  int H, W, K, pixels;  // pixels = N * H * W
  FastDivide by_H, by_W, by_K;
  __device__ bool inside(int h, int w) const { return h >= 0 && h < H && w >= 0 && w < W; }
  // The shift of tap t times sign.
  __device__ void shift(uint32_t tap, int sign, int& dh, int& dw) const {
    uint32_t kh, kw;
    by_K.split(tap, kh, kw);
    dh = sign * (int(kh) - K / 2);
    dw = sign * (int(kw) - K / 2);
  }
  __device__ void position(uint32_t p, int& h, int& w) const {
    uint32_t rows, column, image, row;
    by_W.split(p, rows, column);
    by_H.split(rows, image, row);
    h = int(row);
    w = int(column);
  }
};

inline ConvGeometry make_geometry(int H, int W, int K, int pixels) {
  return ConvGeometry{H, W, K, pixels, FastDivide(uint32_t(H)), FastDivide(uint32_t(W)),
                      FastDivide(uint32_t(K))};
}

// Rows = pixels, k = tap * channels + c: im2col of an NHWC BF16 tensor.
struct PixelsByTapChannels {
  static constexpr bool kMnMajor = false, kCacheInL1 = true;
  const __nv_bfloat16* src;
  ConvGeometry g;
  int channels, k_total, sign;
  FastDivide by_channels;

  struct Slot {
    const __nv_bfloat16* pixel;
    int h, w, k_offset;
  };
  __device__ Slot slot(int line, int part, int origin) const {
    const int p = origin + line;
    Slot s{src, -(1 << 20), 0, part * 8};  // h far outside: every chunk invalid
    if (p < g.pixels) {
      s.pixel = src + int64_t(p) * channels;
      g.position(uint32_t(p), s.h, s.w);
    }
    return s;
  }
  __device__ const void* source(const Slot& s, int k_tile, bool& valid) const {
    const int k0 = k_tile * 64 + s.k_offset;
    uint32_t tap, c0;
    by_channels.split(uint32_t(k0), tap, c0);
    int dh, dw;
    g.shift(tap, sign, dh, dw);
    valid = k0 < k_total && g.inside(s.h + dh, s.w + dw);
    return valid ? static_cast<const void*>(s.pixel + (dh * g.W + dw) * channels + int(c0))
                 : static_cast<const void*>(src);
  }
};

// Rows of a BF16 matrix whose rows and K are padded with zeros to whole tiles
// (the prepared weights): always valid.
struct PaddedRows {
  static constexpr bool kMnMajor = false, kCacheInL1 = false;
  const __nv_bfloat16* data;
  int ld;
  struct Slot {
    const __nv_bfloat16* at;
  };
  __device__ Slot slot(int line, int part, int origin) const {
    return Slot{data + int64_t(origin + line) * ld + part * 8};
  }
  __device__ const void* source(const Slot& s, int k_tile, bool& valid) const {
    valid = true;
    return s.at + k_tile * 64;
  }
};

// Rows = channels, k = pixel: an NHWC BF16 tensor read as its transpose.
// MN-major: a chunk is channels c .. c + 7 of pixel k.
struct ChannelsByPixels {
  static constexpr bool kMnMajor = true, kCacheInL1 = false;
  const __nv_bfloat16* src;
  int channels, pixels;
  struct Slot {
    int c, k_offset;
  };
  __device__ Slot slot(int line, int part, int origin) const {
    return Slot{origin + part * 8, line};
  }
  __device__ const void* source(const Slot& s, int k_tile, bool& valid) const {
    const int p = k_tile * 64 + s.k_offset;
    valid = s.c < channels && p < pixels;
    return valid ? static_cast<const void*>(src + int64_t(p) * channels + s.c)
                 : static_cast<const void*>(src);
  }
};

// Rows = (tap, c), k = pixel: the transposed im2col of an NHWC BF16 tensor.
// MN-major: a chunk is channels c .. c + 7 of pixel k shifted by the tap.
struct TapChannelsByPixels {
  static constexpr bool kMnMajor = true, kCacheInL1 = true;
  const __nv_bfloat16* src;
  ConvGeometry g;
  int channels, rows, sign;  // rows = K * K * channels
  FastDivide by_channels;
  struct Slot {
    int c, dh, dw, k_offset;  // rows past the matrix: dh far outside every image
  };
  __device__ Slot slot(int line, int part, int origin) const {
    const int r = origin + part * 8;
    uint32_t tap, c;
    by_channels.split(uint32_t(r), tap, c);
    Slot s{int(c), 0, 0, line};
    g.shift(tap, sign, s.dh, s.dw);
    if (r >= rows) s.dh = 1 << 20;
    return s;
  }
  __device__ const void* source(const Slot& s, int k_tile, bool& valid) const {
    const int p = k_tile * 64 + s.k_offset;
    int h, w;
    g.position(uint32_t(p), h, w);
    valid = p < g.pixels && g.inside(h + s.dh, w + s.dw);
    return valid ? static_cast<const void*>(src + int64_t(p + s.dh * g.W + s.dw) * channels + s.c)
                 : static_cast<const void*>(src);
  }
};

}  // namespace cae_v4
