// Per-element work of the kernels around the convolution GEMMs, written as
// __host__ __device__ code so that the host test (tf32_conv_steps_test.cu) runs
// the very same index math in plain loops.
//
// Images are NHWC: pixel p = (n * H + i) * W + j, channel c at p * channels + c.
// A tap (ky, kx) of a K x K kernel shifts a pixel by s = sign * (ky - K/2, kx - K/2):
//   TapGather:  dst[p][tap * channels + c] = src[p + s(tap)][c]     (0 outside the image)
//   TapSum:     out[p][c] = act(bias[c] + sum over taps of src[p + s(tap)][tap * channels + c])
//               (taps outside the image skipped; fixed order, no atomics)
// sign = +1 reads the forward neighbourhood, -1 its adjoint.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "nhwc_pixels.cuh"

namespace cae_tf32_conv {

// Built on the shared runtime (plugins/common/cuda/runtime): its pixels,
// launches, context and memory.
using namespace cae_cuda;

// Index of the pixel that tap (ky, kx) reaches from `at`, or -1 outside the image.
template <int K>
__host__ __device__ inline int64_t tap_source(const PixelGrid& g, const Pixel& at, int sign, int ky,
                                              int kx) {
  const int32_t si = at.row + sign * (ky - K / 2), sj = at.col + sign * (kx - K / 2);
  if (si < 0 || si >= g.height || sj < 0 || sj >= g.width) return -1;
  return (static_cast<int64_t>(at.image) * g.height + si) * g.width + sj;
}

// Row p of the gathered matrix: items of kVec consecutive channels of one
// tap, then padding items up to the row length: zeros, except a 1 at element
// `ones_at` (the column that turns a weight-gradient GEMM's last output row
// into the bias gradient; -1: none).
template <int K, int kVec>
struct TapGather {
  PixelGrid grid;
  const float* src;  // [pixels][channels]
  float* dst;        // [pixels][ld]
  int32_t channels;
  FastDivide by_chunks;  // channels / kVec
  int64_t ld;
  int32_t sign;
  uint32_t row_items;  // ld / kVec
  int64_t ones_at;

  __host__ __device__ uint32_t items_per_row() const { return row_items; }

  // Element `item` of row `at` (kVec == 1): for kernels that stage rows.
  __host__ __device__ float element(const Pixel& at, uint32_t item) const {
    uint32_t tap = 0, c = 0;
    by_chunks.split(item, tap, c);
    if (tap >= K * K) return int64_t(item) == ones_at ? 1.0f : 0.0f;
    const int64_t source =
        tap_source<K>(grid, at, sign, static_cast<int>(tap) / K, static_cast<int>(tap) % K);
    return source >= 0 ? src[source * channels + c] : 0.0f;
  }

  __host__ __device__ void operator()(const Pixel& at, uint32_t item) const {
    uint32_t tap = 0, chunk = 0;
    by_chunks.split(item, tap, chunk);
    float* row = dst + static_cast<int64_t>(at.index) * ld;
    Floats<kVec> v;
    if (tap >= K * K) {
      for (int t = 0; t < kVec; ++t) v.v[t] = int64_t(item) * kVec + t == ones_at ? 1.0f : 0.0f;
      store_floats<kVec>(row + int64_t(item) * kVec, v);
      return;
    }
    const int ky = static_cast<int>(tap) / K, kx = static_cast<int>(tap) % K;
    const int64_t source = tap_source<K>(grid, at, sign, ky, kx);
    const uint32_t c = chunk * kVec;
    if (source >= 0) {
      v = load_floats<kVec>(src + source * channels + c);
    } else {
      for (int t = 0; t < kVec; ++t) v.v[t] = 0.0f;
    }
    store_floats<kVec>(row + tap * channels + c, v);
  }
};

template <int K, int kVec>
struct TapSum {
  PixelGrid grid;
  const float* src;  // [pixels][ld]
  int64_t ld;
  float* out;  // [pixels][channels]
  int32_t channels;
  int32_t sign;
  const float* bias;  // [channels] or nullptr
  bool relu;

  __host__ __device__ uint32_t items_per_row() const {
    return static_cast<uint32_t>(channels) / kVec;
  }

  __host__ __device__ void operator()(const Pixel& at, uint32_t item) const {
    const uint32_t c = item * kVec;
    Floats<kVec> acc;
    for (int t = 0; t < kVec; ++t) acc.v[t] = 0.0f;
    for (int ky = 0; ky < K; ++ky) {
      for (int kx = 0; kx < K; ++kx) {
        const int64_t source = tap_source<K>(grid, at, sign, ky, kx);
        if (source < 0) continue;
        const Floats<kVec> v = load_floats<kVec>(src + source * ld + (ky * K + kx) * channels + c);
        for (int t = 0; t < kVec; ++t) acc.v[t] += v.v[t];
      }
    }
    for (int t = 0; t < kVec; ++t) {
      if (bias) acc.v[t] += bias[c + t];
      if (relu) acc.v[t] = acc.v[t] > 0.0f ? acc.v[t] : 0.0f;
    }
    store_floats<kVec>(out + static_cast<int64_t>(at.index) * channels + c, acc);
  }
};

// Sums the split-K partial products of a weight gradient (and, in the columns
// scheme, of the bias gradient) in a fixed order. Weight element
// e = (o * taps + tap) * C + c of the stored [O][taps][C] order comes from
//   columns scheme: partial [O][row] at o * row + tap * C + c; db[o] at o * row + taps * C
//   taps scheme:    partial [taps*O (+pad)][C] at (tap * O + o) * C + c
struct SplitReduce {
  const float* partials;
  int32_t splits;
  int64_t split_stride;
  float* dw;
  uint32_t weight_count;  // O * taps * C
  bool tap_major;
  FastDivide by_taps_c;  // taps * C
  FastDivide by_c;       // C
  uint32_t out_channels;
  int64_t partial_row;  // columns scheme: floats per output channel in the partial
  float* db;            // columns scheme: nullptr when the bias gradient is made elsewhere

  __host__ __device__ uint32_t count() const { return weight_count + (db ? out_channels : 0u); }

  // Partial index that output e sums, and where the sum goes.
  __host__ __device__ int64_t source(uint32_t e) const {
    if (e >= weight_count) return (e - weight_count) * partial_row + by_taps_c.divisor();
    uint32_t o = 0, rest = 0;
    by_taps_c.split(e, o, rest);
    if (!tap_major) return o * partial_row + rest;
    uint32_t tap = 0, c = 0;
    by_c.split(rest, tap, c);
    return (static_cast<int64_t>(tap) * out_channels + o) * by_c.divisor() + c;
  }
  __host__ __device__ float* target(uint32_t e) const {
    return e < weight_count ? dw + e : db + (e - weight_count);
  }

  __host__ __device__ void operator()(uint32_t e) const {
    const int64_t from = source(e);
    float acc = 0.0f;
    for (int32_t s = 0; s < splits; ++s) acc += partials[s * split_stride + from];
    *target(e) = acc;
  }
};

// The weights in the forms the GEMMs multiply, from w[o][tap][c] (width = T*C
// per output channel). Two parts, one after the other:
//   columns scheme: [O][ld] rows zero-padded (only for an odd width, else empty),
//                   then the transpose [T*C][O]
//   taps scheme:    [ld][C] with row j = tap * O + o (zero rows j >= T*O),
//                   then its transpose [C][ld]
struct PreparedWeights {
  const float* w;
  float* out;
  bool columns;
  uint32_t width;  // columns: T*C; taps: T*O
  uint32_t taps;
  uint32_t first_part;  // floats in the first part
  FastDivide by_ld, by_o, by_c;

  __host__ __device__ float weight(uint32_t o, uint32_t tap, uint32_t c) const {
    return w[(static_cast<int64_t>(o) * taps + tap) * by_c.divisor() + c];
  }
  // Weight (tap * O + o, c) of the taps scheme, or 0 in the padding.
  __host__ __device__ float tap_major(uint32_t j, uint32_t c) const {
    if (j >= width) return 0.0f;
    uint32_t tap = 0, o = 0;
    by_o.split(j, tap, o);
    return weight(o, tap, c);
  }

  __host__ __device__ void operator()(uint32_t e) const {
    uint32_t a = 0, b = 0;
    if (columns) {
      if (e < first_part) {
        by_ld.split(e, a, b);  // o, k
        out[e] = b < width ? w[static_cast<int64_t>(a) * width + b] : 0.0f;
      } else {
        by_o.split(e - first_part, a, b);  // k, o
        out[e] = w[static_cast<int64_t>(b) * width + a];
      }
    } else if (e < first_part) {
      by_c.split(e, a, b);  // j, c
      out[e] = tap_major(a, b);
    } else {
      by_ld.split(e - first_part, a, b);  // c, j
      out[e] = tap_major(b, a);
    }
  }
};

// y[r][c] = act(y[r][c] + bias[c]) on a row-major [rows][cols] matrix: the
// epilogue when cuBLASLt cannot fuse it.
struct BiasActivation {
  float* y;
  const float* bias;
  int64_t cols;
  bool relu;

  __host__ __device__ void operator()(int64_t e) const {
    float v = y[e] + bias[e % cols];
    y[e] = relu && v < 0.0f ? 0.0f : v;
  }
};

}  // namespace cae_tf32_conv
