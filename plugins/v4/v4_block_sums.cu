#include <cuda_runtime.h>

#include "runtime_launch.cuh"
#include "v4_block_sums.hpp"

namespace cae_v4 {
namespace {

constexpr int kSumThreads = 256;
constexpr int kInFlight = 8;  // loads issued before their adds: latency, not order

__global__ void __launch_bounds__(kSumThreads)
    block_sums_kernel(int32_t rows, int64_t dw_count, int64_t items,
                      const float* __restrict__ partials, float* __restrict__ dw,
                      float* __restrict__ db) {
  cae_cuda::begin_after_prior_kernels();
  const int64_t item = int64_t(blockIdx.x) * kSumThreads + threadIdx.x;
  if (item >= items) return;
  float total = 0.0f;
  int32_t k = 0;
  for (; k + kInFlight <= rows; k += kInFlight) {
    float v[kInFlight];
#pragma unroll
    for (int u = 0; u < kInFlight; ++u) v[u] = partials[int64_t(k + u) * items + item];
#pragma unroll
    for (int u = 0; u < kInFlight; ++u) total += v[u];
  }
  for (; k < rows; ++k) total += partials[int64_t(k) * items + item];
  if (item < dw_count) {
    dw[item] = total;
  } else {
    db[item - dw_count] = total;
  }
}

}  // namespace

void block_sums(cae_cuda::Context& ctx, int64_t rows, int64_t dw_count, int64_t db_count,
                const float* partials, float* dw, float* db) {
  const int64_t items = dw_count + db_count;
  cae_cuda::launch(ctx, "weight gradient block sums", block_sums_kernel,
                   dim3(unsigned((items + kSumThreads - 1) / kSumThreads)), dim3(kSumThreads), 0,
                   int32_t(rows), dw_count, items, partials, dw, db);
}

}  // namespace cae_v4
