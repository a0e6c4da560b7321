// Reductions in a single launch each: every block writes its partial sum,
// and the last block to finish (an integer ticket, the only atomic) adds the
// partials in a fixed order. The same inputs therefore always give the same
// bits, and no second launch is needed.
#include <algorithm>

#include "v3_launch.cuh"
#include "v3_ops.hpp"

namespace cae_v3 {

namespace {

template <class T>
__device__ __forceinline__ T warp_total(T v) {
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

// Fixed-order sum over a block of kThreads; thread 0 gets it. `shared` holds
// one value per warp; the trailing barrier lets the caller reuse it.
template <class T>
__device__ T block_total(T v, T* shared) {
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  v = warp_total(v);
  if (lane == 0) shared[warp] = v;
  __syncthreads();
  T total = T(0);
  if (warp == 0) {
    total = lane < int(kThreads / 32) ? shared[lane] : T(0);
    total = warp_total(total);
  }
  __syncthreads();
  return total;
}

// After each thread stored its part of the block's partials: true in the
// last block to get here, which may then read every block's partials.
__device__ bool last_block_done(unsigned* counter) {
  __shared__ bool last;
  __threadfence();
  __syncthreads();
  if (threadIdx.x == 0) last = atomicAdd(counter, 1u) == gridDim.x - 1;
  __syncthreads();
  if (last) __threadfence();
  return last;
}

constexpr unsigned kMaxLossBlocks = 1024;

__global__ void __launch_bounds__(kThreads)
    mse_kernel(const float* pred, const float* target, float* grad, int64_t count, float grad_scale,
               double* partials, unsigned* counter, float* loss) {
  __shared__ double warp_sums[kThreads / 32];
  const int64_t quads = count / 4, step = int64_t(gridDim.x) * kThreads;
  double acc = 0.0;
  for (int64_t q = int64_t(blockIdx.x) * kThreads + threadIdx.x; q < quads; q += step) {
    const float4 p = *reinterpret_cast<const float4*>(pred + 4 * q);
    const float4 t = *reinterpret_cast<const float4*>(target + 4 * q);
    const float4 d = make_float4(p.x - t.x, p.y - t.y, p.z - t.z, p.w - t.w);
    acc += (double(d.x) * d.x + double(d.y) * d.y) + (double(d.z) * d.z + double(d.w) * d.w);
    if (grad) {
      *reinterpret_cast<float4*>(grad + 4 * q) =
          make_float4(d.x * grad_scale, d.y * grad_scale, d.z * grad_scale, d.w * grad_scale);
    }
  }
  if (blockIdx.x == 0 && threadIdx.x < count - 4 * quads) {
    const int64_t i = 4 * quads + threadIdx.x;
    const float d = pred[i] - target[i];
    acc += double(d) * d;
    if (grad) grad[i] = d * grad_scale;
  }
  const double block_sum = block_total(acc, warp_sums);
  if (threadIdx.x == 0) partials[blockIdx.x] = block_sum;
  if (!last_block_done(counter)) return;
  double total = 0.0;
  for (unsigned b = threadIdx.x; b < gridDim.x; b += kThreads) total += __ldcg(partials + b);
  total = block_total(total, warp_sums);
  if (threadIdx.x == 0) {
    loss[0] = static_cast<float>(total / double(count));
    *counter = 0;
  }
}

// Column sums of rows [first, last) of a row-major [.][cols] matrix, for
// cols <= kThreads: kThreads / cols "lanes" of threads take every lanes-th
// row each (four independent sums in flight, combined in a fixed order), then
// one thread per column adds the lanes in order. Returns the sum in threads
// 0..cols-1.
__device__ float lane_column_sum(const float* m, int64_t first, int64_t last, int64_t cols,
                                 float* shared, bool cached) {
  const int lanes = kThreads / static_cast<int>(cols);
  const int lane = threadIdx.x / static_cast<int>(cols), c = threadIdx.x % static_cast<int>(cols);
  auto at = [&](int64_t r) { return cached ? __ldcg(m + r * cols + c) : m[r * cols + c]; };
  float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  if (lane < lanes) {
    int64_t r = first + lane;
    for (; r + 3 * lanes < last; r += 4 * lanes) {
      acc[0] += at(r);
      acc[1] += at(r + lanes);
      acc[2] += at(r + 2 * lanes);
      acc[3] += at(r + 3 * lanes);
    }
    for (; r < last; r += lanes) acc[0] += at(r);
  }
  shared[threadIdx.x] = (acc[0] + acc[1]) + (acc[2] + acc[3]);
  __syncthreads();
  float total = 0.0f;
  if (threadIdx.x < cols) {
    for (int l = 0; l < lanes; ++l) total += shared[l * cols + threadIdx.x];
  }
  __syncthreads();
  return total;
}

__global__ void __launch_bounds__(kThreads)
    column_sum_kernel(const float* m, int64_t rows, int64_t cols, int64_t rows_per_block,
                      float* partials, unsigned* counter, float* out) {
  __shared__ float shared[kThreads];
  const int64_t first = int64_t(blockIdx.x) * rows_per_block;
  const int64_t last = min(rows, first + rows_per_block);
  const bool narrow = cols <= int64_t(kThreads);
  if (narrow) {
    const float sum = lane_column_sum(m, first, last, cols, shared, false);
    if (threadIdx.x < cols) partials[int64_t(blockIdx.x) * cols + threadIdx.x] = sum;
  } else {
    for (int64_t c = threadIdx.x; c < cols; c += kThreads) {
      float acc = 0.0f;
      for (int64_t r = first; r < last; ++r) acc += m[r * cols + c];
      partials[int64_t(blockIdx.x) * cols + c] = acc;
    }
  }
  if (!last_block_done(counter)) return;
  if (narrow) {
    const float sum = lane_column_sum(partials, 0, gridDim.x, cols, shared, true);
    if (threadIdx.x < cols) out[threadIdx.x] = sum;
  } else {
    for (int64_t c = threadIdx.x; c < cols; c += kThreads) {
      float acc = 0.0f;
      for (unsigned b = 0; b < gridDim.x; ++b) acc += __ldcg(partials + int64_t(b) * cols + c);
      out[c] = acc;
    }
  }
  if (threadIdx.x == 0) *counter = 0;
}

__global__ void __launch_bounds__(kThreads)
    row_squares_kernel(const float* m, int64_t rows, int64_t cols, float* out) {
  const int lane = threadIdx.x % 32;
  const int64_t warps = int64_t(gridDim.x) * (kThreads / 32);
  for (int64_t r = (int64_t(blockIdx.x) * kThreads + threadIdx.x) / 32; r < rows; r += warps) {
    float acc = 0.0f;
    for (int64_t c = lane; c < cols; c += 32) {
      const float v = m[r * cols + c];
      acc += v * v;
    }
    acc = warp_total(acc);
    if (lane == 0) out[r] = acc;
  }
}

unsigned* counter(Context& ctx, Counter which) { return ctx.counters.as<unsigned>() + which; }

}  // namespace

void mse_loss(Context& ctx, const float* pred, const float* target, int64_t count, float* loss,
              float* grad) {
  // The grid depends on the count only: a fixed summation order.
  const int64_t quads = std::max<int64_t>(1, count / 4);
  const unsigned blocks =
      static_cast<unsigned>(std::min<int64_t>(kMaxLossBlocks, (quads + kThreads - 1) / kThreads));
  double* partials = reinterpret_cast<double*>(ctx.reduction_area.get(2 * kMaxLossBlocks));
  const float grad_scale = static_cast<float>(2.0 / double(count));
  mse_kernel<<<blocks, kThreads, 0, ctx.stream>>>(pred, target, grad, count, grad_scale, partials,
                                                  counter(ctx, kMseCounter), loss);
  check_launch("mse_kernel");
}

void column_sums(Context& ctx, const float* m, int64_t rows, int64_t cols, float* out) {
  // Enough blocks to fill the GPU, few enough that the last block's pass over
  // their partial sums stays short.
  const int64_t blocks = std::max<int64_t>(1, std::min<int64_t>(264, rows / 64));
  const int64_t rows_per_block = (rows + blocks - 1) / blocks;
  float* partials = ctx.reduction_area.get(static_cast<size_t>(blocks * cols));
  column_sum_kernel<<<static_cast<unsigned>(blocks), kThreads, 0, ctx.stream>>>(
      m, rows, cols, rows_per_block, partials, counter(ctx, kColumnSumCounter), out);
  check_launch("column_sum_kernel");
}

void row_squares(Context& ctx, const float* m, int64_t rows, int64_t cols, float* out) {
  const unsigned blocks = cae_plugin::cuda::grid_for(rows * 32, kThreads);
  row_squares_kernel<<<blocks, kThreads, 0, ctx.stream>>>(m, rows, cols, out);
  check_launch("row_squares_kernel");
}

}  // namespace cae_v3
