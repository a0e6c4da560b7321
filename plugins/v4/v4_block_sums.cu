#include <cuda_runtime.h>

#include "runtime_launch.cuh"
#include "v4_block_sums.hpp"

namespace cae_v4 {
namespace {

// A block is 32 items (x: one warp reads 128 consecutive bytes of a row) by
// kSlices slices of the rows (y). With one thread per item and every row in
// it, the seed's first and last layers (about 7,000 items) made 28 blocks:
// 28 of 132 multiprocessors streaming 7 MB, 12.5 us at any batch. Sliced,
// the same sums make 8 times the blocks.
constexpr int kItemsPerBlock = 32;
constexpr int kSlices = 8;
constexpr int kInFlight = 4;  // loads issued before their adds: latency, not order

// Slice s adds rows s, s + kSlices, s + 2 kSlices, ... in that order; then
// the slices' totals are added in slice order. The order depends on the
// shape only: the same bits on every GPU and every run.
__global__ void __launch_bounds__(kItemsPerBlock* kSlices)
    block_sums_kernel(int32_t rows, int64_t dw_count, int64_t items,
                      const float* __restrict__ partials, float* __restrict__ dw,
                      float* __restrict__ db) {
  __shared__ float slice_totals[kSlices][kItemsPerBlock];
  cae_cuda::begin_after_prior_kernels();
  const int64_t item = int64_t(blockIdx.x) * kItemsPerBlock + threadIdx.x;
  const bool inside = item < items;
  float total = 0.0f;
  if (inside) {
    int32_t k = threadIdx.y;
    for (; k + (kInFlight - 1) * kSlices < rows; k += kInFlight * kSlices) {
      float v[kInFlight];
#pragma unroll
      for (int u = 0; u < kInFlight; ++u) v[u] = partials[int64_t(k + u * kSlices) * items + item];
#pragma unroll
      for (int u = 0; u < kInFlight; ++u) total += v[u];
    }
    for (; k < rows; k += kSlices) total += partials[int64_t(k) * items + item];
  }
  slice_totals[threadIdx.y][threadIdx.x] = total;
  __syncthreads();
  if (threadIdx.y != 0 || !inside) return;
  float sum = slice_totals[0][threadIdx.x];
#pragma unroll
  for (int s = 1; s < kSlices; ++s) sum += slice_totals[s][threadIdx.x];
  if (item < dw_count) {
    dw[item] = sum;
  } else {
    db[item - dw_count] = sum;
  }
}

}  // namespace

void block_sums(cae_cuda::Context& ctx, int64_t rows, int64_t dw_count, int64_t db_count,
                const float* partials, float* dw, float* db) {
  const int64_t items = dw_count + db_count;
  cae_cuda::launch(ctx, "weight gradient block sums", block_sums_kernel,
                   dim3(unsigned((items + kItemsPerBlock - 1) / kItemsPerBlock)),
                   dim3(kItemsPerBlock, kSlices), 0, int32_t(rows), dw_count, items, partials, dw,
                   db);
}

}  // namespace cae_v4
