// Deterministic row sums: bias gradients (db[o] = sum over p of DY[o][p]) and
// the squared row norms of the RBF kernel matrix.
//
// A row of a few rows of many columns (3 x 65,536 for conv5's db) would leave
// most of the GPU idle with one block per row, so rows are split in chunks:
// pass 1 gives every (row, chunk) block a partial sum, pass 2 adds a row's
// partials in a fixed order. The split depends on the shape only, never on
// the device, so the bits do not either.
#include <algorithm>
#include <string>

#include "v2_ops.hpp"
#include "v2_reductions.cuh"
#include "v2_vector_access.cuh"

namespace cae_v2 {

namespace {

constexpr int kRowThreads = 256;

struct RowSplit {
  int64_t chunks, chunk_len;  // chunk_len a multiple of 4 (float4 loads)
};

RowSplit split_rows(int64_t rows, int64_t cols) {
  constexpr int64_t kTargetBlocks = 1024, kMinChunk = 2048;
  int64_t chunks = 1;
  if (rows < kTargetBlocks) {
    chunks = std::min((kTargetBlocks + rows - 1) / rows, std::max<int64_t>(1, cols / kMinChunk));
  }
  int64_t chunk_len = (cols + chunks - 1) / chunks;
  chunk_len = (chunk_len + 3) / 4 * 4;
  chunks = (cols + chunk_len - 1) / chunk_len;  // no empty chunk
  return {chunks, chunk_len};
}

template <bool kSquare>
__device__ __forceinline__ float term(float v) {
  return kSquare ? v * v : v;
}

// Block (row, chunk) = blockIdx.x -> out[blockIdx.x] (= out[row] when chunks == 1).
// kVector needs cols % 4 == 0, which keeps rows and chunks float4-aligned.
template <bool kSquare, bool kVector>
__global__ void __launch_bounds__(kRowThreads)
    row_chunk_sums(const float* in, int64_t cols, int64_t chunks, int64_t chunk_len, float* out) {
  const int64_t block = blockIdx.x;
  const int64_t row = block / chunks, chunk = block - row * chunks;
  const float* row_in = in + row * cols;
  const int64_t begin = chunk * chunk_len, end = min(begin + chunk_len, cols);
  float acc = 0.0f;
  if (kVector) {
    for (int64_t c = begin + 4 * int64_t(threadIdx.x); c < end; c += 4 * kRowThreads) {
      const float4 v = load4(row_in + c);
      acc += (term<kSquare>(v.x) + term<kSquare>(v.y)) + (term<kSquare>(v.z) + term<kSquare>(v.w));
    }
  } else {
    for (int64_t c = begin + threadIdx.x; c < end; c += kRowThreads)
      acc += term<kSquare>(row_in[c]);
  }
  const float total = block_sum<kRowThreads>(acc);
  if (threadIdx.x == 0) out[block] = total;
}

// One warp per row adds the row's `chunks` partials.
__global__ void __launch_bounds__(kRowThreads)
    finish_row_sums(const float* partials, int64_t rows, int64_t chunks, float* out) {
  const int64_t row = (int64_t(blockIdx.x) * kRowThreads + threadIdx.x) / 32;
  const int lane = threadIdx.x % 32;
  if (row >= rows) return;  // whole warps leave together
  float acc = 0.0f;
  for (int64_t c = lane; c < chunks; c += 32) acc += partials[row * chunks + c];
  acc = warp_sum(acc);
  if (lane == 0) out[row] = acc;
}

template <bool kSquare>
void launch_row_chunk_sums(cudaStream_t stream, const float* in, int64_t cols,
                           const RowSplit& split, int64_t blocks, float* out) {
  const unsigned grid = static_cast<unsigned>(blocks);
  if (cols % 4 == 0) {
    row_chunk_sums<kSquare, true>
        <<<grid, kRowThreads, 0, stream>>>(in, cols, split.chunks, split.chunk_len, out);
  } else {
    row_chunk_sums<kSquare, false>
        <<<grid, kRowThreads, 0, stream>>>(in, cols, split.chunks, split.chunk_len, out);
  }
  CAE_CUDA_CHECK_LAUNCH("row_chunk_sums");
}

}  // namespace

void row_sums(Context& ctx, const float* in, int64_t rows, int64_t cols, RowTerm term, float* out) {
  if (rows <= 0 || cols <= 0) return;
  const RowSplit split = split_rows(rows, cols);
  const int64_t blocks = rows * split.chunks;
  if (blocks > INT32_MAX) {
    cae_plugin::fail(CAE_STATUS_UNSUPPORTED,
                     "row sums over " + std::to_string(rows) + " rows exceed the grid");
  }
  // One pass straight into `out`, or two through the context's partials.
  float* first_out = out;
  if (split.chunks > 1) {
    if (static_cast<size_t>(blocks) > kReductionPartialFloats) {
      cae_plugin::fail(CAE_STATUS_INTERNAL, "row sums: " + std::to_string(blocks) +
                                                " partial sums exceed the reserved buffer");
    }
    first_out = ctx.reduction_partials.data();
  }
  if (term == RowTerm::square) {
    launch_row_chunk_sums<true>(ctx.stream, in, cols, split, blocks, first_out);
  } else {
    launch_row_chunk_sums<false>(ctx.stream, in, cols, split, blocks, first_out);
  }
  if (split.chunks > 1) {
    const unsigned grid = static_cast<unsigned>((rows * 32 + kRowThreads - 1) / kRowThreads);
    finish_row_sums<<<grid, kRowThreads, 0, ctx.stream>>>(first_out, rows, split.chunks, out);
    CAE_CUDA_CHECK_LAUNCH("finish_row_sums");
  }
}

}  // namespace cae_v2
