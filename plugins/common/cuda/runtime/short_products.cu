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
//
// A block of 32 long rows is a small grid for a few thousand rows: a
// 5,632-row group of the linear classifier is 176 blocks, fewer than the
// 264 an H100 holds at once (two a SM), and Nsight Compute measured that
// product at half of the memory's bandwidth. So the columns are cut too,
// into `parts` ranges of whole chunks, each a block of its own, until the
// grid has about kTargetBlocks blocks: each part's sums go to a scratch
// area and a second kernel adds the parts in part order (still a fixed
// order: the parts depend on the shape alone). short-products=whole-rows
// keeps one block per 32 rows, every column, to compare against.
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
// Blocks a product's grid is cut to reach at least (several waves of any
// current GPU, so that the last wave's idle SMs cost little), and the most
// parts a row's columns are cut into.
constexpr int64_t kTargetBlocks = 2048;
constexpr int64_t kMaxParts = 16;

__device__ __forceinline__ float dot4(float4 a, float4 b, float acc) {
  acc = fmaf(a.x, b.x, acc);
  acc = fmaf(a.y, b.y, acc);
  acc = fmaf(a.z, b.z, acc);
  return fmaf(a.w, b.w, acc);
}

// out[r * row_stride + s * short_stride] = <L[r], A[s]> over part
// blockIdx.y of the columns (of `parts` ranges of whole chunks), r < rows,
// s < S; block y's sums go to out + y * part_stride. L and A are row-major
// with `quads` float4 per row.
template <int S>
__global__ void __launch_bounds__(kThreads)
    short_products_kernel(const float4* long_rows, const float4* short_rows, float* out,
                          int64_t rows, int64_t quads, int64_t row_stride, int64_t short_stride,
                          int64_t part_stride) {
  __shared__ float4 staged[S][kChunkQuads];
  begin_after_prior_kernels();
  const int64_t chunks = (quads + kChunkQuads - 1) / kChunkQuads;
  const int64_t part = blockIdx.y, parts = gridDim.y;
  const int64_t first_quad = chunks * part / parts * kChunkQuads;
  const int64_t part_end = chunks * (part + 1) / parts * kChunkQuads;
  const int64_t end_quad = part_end < quads ? part_end : quads;
  out += part * part_stride;
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
  for (int64_t q0 = first_quad; q0 < end_quad; q0 += kChunkQuads) {
    const int width = end_quad - q0 < kChunkQuads ? int(end_quad - q0) : kChunkQuads;
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

// out[r * row_stride + s * short_stride] = the sum over the parts, in part
// order, of parts[(part * rows + r) * S + s].
__global__ void __launch_bounds__(kThreads)
    add_parts_kernel(const float* parts, float* out, int64_t rows, int64_t S, int64_t count,
                     int64_t row_stride, int64_t short_stride) {
  begin_after_prior_kernels();
  const int64_t items = rows * S, step = int64_t(gridDim.x) * kThreads;
  for (int64_t e = int64_t(blockIdx.x) * kThreads + threadIdx.x; e < items; e += step) {
    float sum = parts[e];
    for (int64_t part = 1; part < count; ++part) sum += parts[part * items + e];
    const int64_t r = e / S, s = e - r * S;
    out[r * row_stride + s * short_stride] = sum;
  }
}

// How many ranges a row's columns are cut into: enough for about
// kTargetBlocks blocks, never more than the row's chunks. The shape alone
// decides it, so the sums' order does too.
int64_t column_parts(int64_t row_blocks, int64_t quads, bool split) {
  if (!split) return 1;
  const int64_t chunks = (quads + kChunkQuads - 1) / kChunkQuads;
  const int64_t wanted = (kTargetBlocks + row_blocks - 1) / row_blocks;
  return std::max<int64_t>(1, std::min({wanted, chunks, kMaxParts}));
}

template <int S>
void launch_for(Context& ctx, const float* long_rows, const float* short_rows, float* out,
                int64_t rows, int64_t d, int64_t row_stride, int64_t short_stride) {
  const int64_t row_blocks = (rows + kRowsPerBlock - 1) / kRowsPerBlock;
  const int64_t parts = column_parts(row_blocks, d / 4, ctx.tuning.split_short_products);
  const dim3 grid{unsigned(row_blocks), unsigned(parts)};
  const auto* long4 = reinterpret_cast<const float4*>(long_rows);
  const auto* short4 = reinterpret_cast<const float4*>(short_rows);
  if (parts == 1) {
    launch(ctx, "short_products_kernel", short_products_kernel<S>, grid, kThreads, 0, long4, short4,
           out, rows, d / 4, row_stride, short_stride, int64_t{0});
    return;
  }
  // Each part's sums as [rows, S], then added into out.
  float* sums = ctx.scratch.get(static_cast<size_t>(parts * rows * S));
  launch(ctx, "short_products_kernel", short_products_kernel<S>, grid, kThreads, 0, long4, short4,
         sums, rows, d / 4, int64_t{S}, int64_t{1}, rows * S);
  launch(ctx, "add_parts_kernel", add_parts_kernel, cae_plugin::cuda::grid_for(rows * S, kThreads),
         kThreads, 0, static_cast<const float*>(sums), out, rows, int64_t{S}, parts, row_stride,
         short_stride);
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
