// Products with a short side: for each of `rows` long rows L[r] (d floats)
// and each of S <= kMaxShortRows short rows A[s] (d floats), the dot product
// <L[r], A[s]>. The linear classifier's two products per pass have this form
// (scores: 45,000 rows of 16,000 features against 10 classes' weights;
// gradient: 16,000 feature columns against the 10 classes' residuals), and
// cuBLASLt's FP32 GEMMs run them about ten times slower than the bandwidth
// that reading L once takes: a tile of 10 columns leaves most of every
// 128-wide tile idle, and a long K with few output tiles leaves SMs idle.
//
// Here a block owns 32 long rows, every warp kRowsPerWarp of them, and its
// chunks of columns stream through shared memory (the long rows' and the
// short rows' same columns, so each short float is read from L2 once per
// block instead of once per long row); each lane sums one 16-byte quad of
// every chunk in a fixed order and the warp adds the lanes in a fixed tree:
// the result depends on the shapes alone, never on timing.
//
// A few thousand long rows of many columns make fewer blocks than a GPU has
// SMs (a 200 x 4,100 product: 7), so the columns are cut too, into `parts`
// ranges of whole chunks, each a block of its own, until the grid has about
// kTargetBlocks blocks: each part's sums go to a scratch area and a second
// kernel adds the parts in part order (still a fixed order: the parts
// depend on the shape alone). A grid of a block an SM is enough: on an
// H100 the linear classifier's 5,632-row groups (176 blocks) read no slower
// uncut than cut into 11 parts (2,145 blocks), each block keeping its
// chunks in flight. short-products=whole-rows never cuts, to compare
// against.
#include <algorithm>

#include "async_copy.cuh"
#include "runtime_launch.cuh"
#include "runtime_ops.hpp"

namespace cae_cuda {

namespace {

constexpr int kWarps = int(kThreads) / 32;
constexpr int kRowsPerWarp = 4;
constexpr int kRowsPerBlock = kWarps * kRowsPerWarp;
// Columns per chunk: one 16-byte quad a lane.
constexpr int kChunkQuads = 32;
// Chunks in shared memory at once: the one being summed and kStages - 1 on
// their way. About 86 KB a block for 10 short rows, two blocks an SM.
constexpr int kStages = 4;
// Blocks a product's grid is cut to reach at least (about a block for each
// SM of current GPUs: 132 on an H100), and the most parts a row's columns
// are cut into.
constexpr int64_t kTargetBlocks = 128;
constexpr int64_t kMaxParts = 16;

template <int S>
__host__ __device__ constexpr size_t stage_quads() {
  return size_t(kRowsPerBlock + S) * kChunkQuads;
}

template <int S>
constexpr size_t shared_bytes() {
  return kStages * stage_quads<S>() * sizeof(float4);
}

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
//
// The block's chunks stream through kStages slots of shared memory (its 32
// long rows' columns and the short rows' same columns) by cp.async: while the
// warps sum one chunk, the next kStages - 1 are in flight. A version that
// loaded each chunk into registers and then staged the short rows kept the
// memory busy only between its barriers: Nsight Compute measured it at half
// of the H100's DRAM bandwidth with every SM holding two blocks.
template <int S>
__global__ void __launch_bounds__(kThreads)
    short_products_kernel(const float4* long_rows, const float4* short_rows, float* out,
                          int64_t rows, int64_t quads, int64_t row_stride, int64_t short_stride,
                          int64_t part_stride) {
  extern __shared__ float4 slots[];  // [kStages][kRowsPerBlock + S][kChunkQuads]
  begin_after_prior_kernels();
  const int64_t chunks = (quads + kChunkQuads - 1) / kChunkQuads;
  const int64_t part = blockIdx.y, parts = gridDim.y;
  const int64_t first_chunk = chunks * part / parts;
  const int64_t end_chunk = chunks * (part + 1) / parts;
  out += part * part_stride;
  const int lane = int(threadIdx.x) % 32, warp = int(threadIdx.x) / 32;
  const int64_t block_first = int64_t(blockIdx.x) * kRowsPerBlock;
  // Chunk c into slot c % kStages: the block's rows, then the short rows;
  // rows past the end and columns past the last are zeros.
  auto issue = [&](int64_t c) {
    if (c < end_chunk) {
      float4* slot = slots + size_t(c % kStages) * stage_quads<S>();
      const int64_t q0 = c * kChunkQuads;
      for (int i = int(threadIdx.x); i < (kRowsPerBlock + S) * kChunkQuads; i += int(kThreads)) {
        const int r = i / kChunkQuads, q = i % kChunkQuads;
        const bool is_long = r < kRowsPerBlock;
        const int64_t row = is_long ? block_first + r : r - kRowsPerBlock;
        const bool valid = (!is_long || row < rows) && q0 + q < quads;
        const float4* base = is_long ? long_rows : short_rows;
        const float4* source = valid ? base + row * quads + q0 + q : base;
        cae_plugin::cuda::copy_chunk_async<false>(
            static_cast<uint32_t>(__cvta_generic_to_shared(slot + i)), source, valid);
      }
    }
    cae_plugin::cuda::commit_copies();  // every thread commits once a chunk
  };
  float acc[kRowsPerWarp][S];
#pragma unroll
  for (int r = 0; r < kRowsPerWarp; ++r) {
#pragma unroll
    for (int s = 0; s < S; ++s) acc[r][s] = 0.0f;
  }
  for (int k = 0; k < kStages - 1; ++k) issue(first_chunk + k);
  for (int64_t c = first_chunk; c < end_chunk; ++c) {
    cae_plugin::cuda::wait_copies<kStages - 2>();
    // Chunk c is in every thread's view, and every warp is done with the
    // slot the next issue refills (chunk c - 1's).
    __syncthreads();
    issue(c + kStages - 1);
    const float4* slot = slots + size_t(c % kStages) * stage_quads<S>();
    float4 x[kRowsPerWarp];
#pragma unroll
    for (int r = 0; r < kRowsPerWarp; ++r)
      x[r] = slot[(warp * kRowsPerWarp + r) * kChunkQuads + lane];
#pragma unroll
    for (int s = 0; s < S; ++s) {
      const float4 a = slot[(kRowsPerBlock + s) * kChunkQuads + lane];
#pragma unroll
      for (int r = 0; r < kRowsPerWarp; ++r) acc[r][s] = dot4(x[r], a, acc[r][s]);
    }
  }
  cae_plugin::cuda::wait_copies<0>();  // no copy outlives the block
  const int64_t first = block_first + int64_t(warp) * kRowsPerWarp;
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
  const size_t bytes = shared_bytes<S>();
  CAE_CUDA_CHECK(cudaFuncSetAttribute(short_products_kernel<S>,
                                      cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes)));
  const auto* long4 = reinterpret_cast<const float4*>(long_rows);
  const auto* short4 = reinterpret_cast<const float4*>(short_rows);
  if (parts == 1) {
    launch(ctx, "short_products_kernel", short_products_kernel<S>, grid, kThreads, bytes, long4,
           short4, out, rows, d / 4, row_stride, short_stride, int64_t{0});
    return;
  }
  // Each part's sums as [rows, S], then added into out.
  float* sums = ctx.scratch.get(static_cast<size_t>(parts * rows * S));
  launch(ctx, "short_products_kernel", short_products_kernel<S>, grid, kThreads, bytes, long4,
         short4, sums, rows, d / 4, int64_t{S}, int64_t{1}, rows * S);
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
