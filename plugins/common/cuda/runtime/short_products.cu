// Products with a short side: for each of `rows` long rows L[r] (d floats)
// and each of S <= kMaxShortRows short rows A[s] (d floats), the dot product
// <L[r], A[s]>. The linear classifier's two products per pass have this form
// (scores: 45,000 rows of 16,000 features against 10 classes' weights;
// gradient: 16,000 feature columns against the 10 classes' residuals), and
// cuBLASLt's FP32 GEMMs run them about ten times slower than the bandwidth
// that reading L once takes: a tile of 10 columns leaves most of every
// 128-wide tile idle, and a long K with few output tiles leaves SMs idle.
//
// Here every warp owns kRowsPerWarp long rows and walks their columns four
// floats a lane (one 16-byte load); a block's warps share a chunk of the short
// rows staged in shared memory, so each short float is read from L2 once per
// block instead of once per long row. Each lane sums its columns in a fixed
// order and the warp adds the lanes in a fixed tree: the result depends on
// the shapes alone, never on timing.
#include <algorithm>

#include "runtime_launch.cuh"
#include "runtime_ops.hpp"

namespace cae_cuda {

namespace {

constexpr int kWarps = int(kThreads) / 32;
constexpr int kRowsPerWarp = 4;
constexpr int kRowsPerBlock = kWarps * kRowsPerWarp;
// Columns of the short rows staged per step: two 16-byte loads per lane.
constexpr int kChunkQuads = 64;

__device__ __forceinline__ float dot4(float4 a, float4 b, float acc) {
  acc = fmaf(a.x, b.x, acc);
  acc = fmaf(a.y, b.y, acc);
  acc = fmaf(a.z, b.z, acc);
  return fmaf(a.w, b.w, acc);
}

// out[r * row_stride + s * short_stride] = <L[r], A[s]>, r < rows, s < S.
// L and A are row-major with `quads` float4 per row.
template <int S>
__global__ void __launch_bounds__(kThreads)
    short_products_kernel(const float4* long_rows, const float4* short_rows, float* out,
                          int64_t rows, int64_t quads, int64_t row_stride, int64_t short_stride) {
  __shared__ float4 staged[S][kChunkQuads];
  begin_after_prior_kernels();
  const int lane = int(threadIdx.x) % 32, warp = int(threadIdx.x) / 32;
  const int64_t first = int64_t(blockIdx.x) * kRowsPerBlock + int64_t(warp) * kRowsPerWarp;
  // Rows past the end read the last row (their sums are not written), so the
  // loop has no per-row branch.
  const float4* row[kRowsPerWarp];
#pragma unroll
  for (int r = 0; r < kRowsPerWarp; ++r)
    row[r] = long_rows + (first + r < rows ? first + r : rows - 1) * quads;
  float acc[kRowsPerWarp][S];
#pragma unroll
  for (int r = 0; r < kRowsPerWarp; ++r) {
#pragma unroll
    for (int s = 0; s < S; ++s) acc[r][s] = 0.0f;
  }
  const float4 zero = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  for (int64_t q0 = 0; q0 < quads; q0 += kChunkQuads) {
    const int width = quads - q0 < kChunkQuads ? int(quads - q0) : kChunkQuads;
    // The long rows' loads are issued before the barrier, so that they are
    // in flight while the block stages the short rows.
    float4 x[2][kRowsPerWarp];
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int q = lane + 32 * h;
#pragma unroll
      for (int r = 0; r < kRowsPerWarp; ++r) x[h][r] = q < width ? __ldg(row[r] + q0 + q) : zero;
    }
    __syncthreads();  // every warp is done with the previous chunk
    for (int i = int(threadIdx.x); i < S * kChunkQuads; i += int(kThreads)) {
      const int s = i / kChunkQuads, q = i % kChunkQuads;
      staged[s][q] = q < width ? __ldg(short_rows + s * quads + q0 + q) : zero;
    }
    __syncthreads();
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int q = lane + 32 * h;
#pragma unroll
      for (int s = 0; s < S; ++s) {
        const float4 a = staged[s][q];
#pragma unroll
        for (int r = 0; r < kRowsPerWarp; ++r) acc[r][s] = dot4(x[h][r], a, acc[r][s]);
      }
    }
  }
#pragma unroll
  for (int r = 0; r < kRowsPerWarp; ++r) {
#pragma unroll
    for (int s = 0; s < S; ++s) {
      float v = acc[r][s];
#pragma unroll
      for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
      if (lane == 0 && first + r < rows) out[(first + r) * row_stride + s * short_stride] = v;
    }
  }
}

template <int S>
void launch_for(Context& ctx, const float* long_rows, const float* short_rows, float* out,
                int64_t rows, int64_t d, int64_t row_stride, int64_t short_stride) {
  const unsigned blocks = unsigned((rows + kRowsPerBlock - 1) / kRowsPerBlock);
  launch(ctx, "short_products_kernel", short_products_kernel<S>, blocks, kThreads, 0,
         reinterpret_cast<const float4*>(long_rows), reinterpret_cast<const float4*>(short_rows),
         out, rows, d / 4, row_stride, short_stride);
}

// One instantiation per short-side length: the sums live in registers.
template <int S>
void dispatch(int short_count, Context& ctx, const float* long_rows, const float* short_rows,
              float* out, int64_t rows, int64_t d, int64_t row_stride, int64_t short_stride) {
  if constexpr (S <= kMaxShortRows) {
    if (short_count == S) {
      launch_for<S>(ctx, long_rows, short_rows, out, rows, d, row_stride, short_stride);
    } else {
      dispatch<S + 1>(short_count, ctx, long_rows, short_rows, out, rows, d, row_stride,
                      short_stride);
    }
  }
}

bool aligned16(const void* p) { return reinterpret_cast<uintptr_t>(p) % 16 == 0; }

}  // namespace

bool short_products(Context& ctx, const float* x, const float* y, float* k,
                    const cae_plugin::KernelDims& dims) {
  if (!ctx.tuning.short_products || dims.d == 0 || dims.d % 4 != 0 || !aligned16(x) ||
      !aligned16(y)) {
    return false;
  }
  // Row counts fit the grid: kernel_matrix's checks bound n and m.
  if (dims.m <= kMaxShortRows) {  // K[n][m]: x long, y short
    dispatch<1>(int(dims.m), ctx, x, y, k, dims.n, dims.d, dims.m, 1);
    return true;
  }
  if (dims.n <= kMaxShortRows) {  // K[n][m]: y long, x short; K's rows are the short side
    dispatch<1>(int(dims.n), ctx, y, x, k, dims.m, dims.d, 1, dims.m);
    return true;
  }
  return false;
}

}  // namespace cae_cuda
