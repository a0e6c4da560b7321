// NHWC pixels and channel vectors: the index math every per-element kernel
// body of the runtime (and of v3's and v4's convolutions) shares. A pixel p of
// an image batch is (n * H + i) * W + j; channel c of it is at p * channels + c.
// __host__ __device__ so that host tests run the very same math in plain loops.
#pragma once

#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "fast_divide.cuh"

namespace cae_cuda {

struct PixelGrid {
  int32_t height = 1, width = 1;
  FastDivide by_width, by_plane;  // W and H * W

  PixelGrid() = default;
  __host__ PixelGrid(int32_t h, int32_t w)
      : height(h),
        width(w),
        by_width(static_cast<uint32_t>(w)),
        by_plane(static_cast<uint32_t>(h) * static_cast<uint32_t>(w)) {}
};

// A pixel with its image, row and column.
struct Pixel {
  uint32_t index, image;
  int32_t row, col;
};

__host__ __device__ inline Pixel locate(const PixelGrid& g, uint32_t p) {
  Pixel at;
  at.index = p;
  uint32_t rest = 0, row = 0, col = 0;
  g.by_plane.split(p, at.image, rest);
  g.by_width.split(rest, row, col);
  at.row = static_cast<int32_t>(row);
  at.col = static_cast<int32_t>(col);
  return at;
}

// kVec consecutive channels of one pixel, loaded and stored as one vector.
template <int kVec>
struct Floats {
  float v[kVec];
};

template <int kVec>
__host__ __device__ inline Floats<kVec> load_floats(const float* p) {
  Floats<kVec> r;
  if constexpr (kVec == 4) {
    const float4 q = *reinterpret_cast<const float4*>(p);
    r.v[0] = q.x;
    r.v[1] = q.y;
    r.v[2] = q.z;
    r.v[3] = q.w;
  } else {
    for (int t = 0; t < kVec; ++t) r.v[t] = p[t];
  }
  return r;
}

template <int kVec>
__host__ __device__ inline void store_floats(float* p, const Floats<kVec>& r) {
  if constexpr (kVec == 4) {
    *reinterpret_cast<float4*>(p) = make_float4(r.v[0], r.v[1], r.v[2], r.v[3]);
  } else {
    for (int t = 0; t < kVec; ++t) p[t] = r.v[t];
  }
}

// The BF16 copy of kVec stored floats (round to nearest even, as every BF16
// operand of v4's GEMMs is rounded): written beside the FP32 values by a pass
// whose output a BF16 GEMM reads next, so that no conversion pass follows it.
template <int kVec>
__host__ __device__ inline void store_bf16(__nv_bfloat16* p, const Floats<kVec>& r) {
  if constexpr (kVec == 4) {
    uint32_t bits[4];
    for (int t = 0; t < 4; ++t) bits[t] = __nv_bfloat16_raw(__float2bfloat16_rn(r.v[t])).x;
    *reinterpret_cast<uint2*>(p) = make_uint2(bits[0] | bits[1] << 16, bits[2] | bits[3] << 16);
  } else {
    for (int t = 0; t < kVec; ++t) p[t] = __float2bfloat16_rn(r.v[t]);
  }
}

}  // namespace cae_cuda
