// What the fused last layer's kernels share (v4_upsampled_conv.cu, FP32;
// v4_upsampled_backward_tf32.cu, tensor cores): the layer's sizes, where each
// 3x3 tap of an upsampled output lands on the small tensor, the sums of the
// output gradients each weight meets per small pixel, and the choice of
// kernel per number of outputs.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "op_shapes.hpp"

namespace cae_v4 {
namespace upsampled {

struct Geometry {
  int32_t h, w;  // t's (small) size
  int32_t H, W;  // the output's, 2h x 2w
  int32_t C, O;
  int64_t small_pixels;  // N * h * w
};

inline Geometry geometry(const cae_plugin::ConvDims& d) {
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

// Per small pixel q = (i, j) and weight (o, ky, kx): the output gradients
// that weight multiplies with q's value, added. Tap (ky, kx) of output pixel
// (Y, X) reads upsampled (Y + ky - 1, X + kx - 1), and the upsampled pixels
// (2i + a, 2j + b), a, b in {0, 1}, are q's; so weight (o, ky, kx) meets q
// through the 2x2 output pixels (2i + a - ky + 1, 2j + b - kx + 1), and
//   dt[q][c]     = sum over (o, ky, kx) of w[o][ky][kx][c] * S[q][o][ky][kx]
//   dw[o][ky][kx][c] = sum over q of t[q][c] * S[q][o][ky][kx]
//   db[o]        = sum over q of S[q][o][1][1] (the 2x2 outputs above q).
// S is the same for every channel c: made once per tile, it leaves each
// (pixel, channel) one multiply-add per weight for dt and one for dw, where
// going through the 4x4 output gradients one by one took 4 of each.
template <int O>
__device__ __forceinline__ float gradient_sum(const float* __restrict__ dy, const Geometry& g,
                                              int64_t n, int i, int j, int o, int ky, int kx) {
  float s = 0.0f;
#pragma unroll
  for (int a = 0; a < 2; ++a) {
#pragma unroll
    for (int b = 0; b < 2; ++b) {
      const int row = 2 * i + a - ky + 1, col = 2 * j + b - kx + 1;
      const bool inside = row >= 0 && row < g.H && col >= 0 && col < g.W;
      s += inside ? dy[((n * g.H + row) * g.W + col) * O + o] : 0.0f;
    }
  }
  return s;
}

// Calls f(std::integral_constant-like Outputs<O>{}) for O in 1..4.
template <int O>
struct Outputs {
  static constexpr int value = O;
};

template <class F>
inline bool with_outputs(int64_t O, F&& f) {
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

}  // namespace upsampled
}  // namespace cae_v4
