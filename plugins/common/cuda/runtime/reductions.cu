// Reductions in a single launch each: every block writes its partial sum,
// and the last block to finish (an integer ticket, the only atomic) adds the
// partials in a fixed order. The same inputs therefore always give the same
// bits, and no second launch is needed.
#include <algorithm>
#include <cstdint>

#include "block_reductions.cuh"
#include "kernel_queries.cuh"
#include "runtime_launch.cuh"
#include "runtime_ops.hpp"

namespace cae_cuda {

namespace {

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
  begin_after_prior_kernels();
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

// Column sums are bound by the latency of their rounds of loads, not by their
// adds: four-column float4 loads where the columns allow, eight independent
// loads in flight per thread, and a grid of at most 128 blocks, whose partial
// rows the last block adds in a few rounds. (With scalar loads, four in
// flight and 264 blocks, one batch-64 step's column sums take 58 us; this way
// 41 us. Blocks of 1024 threads take 35 us alone but make the epoch 2% slower:
// they fill an SM, and v4 runs the column sums beside the side stream's GEMM.)
constexpr int64_t kMaxColumnSumBlocks = 128;

__device__ __forceinline__ void accumulate(float& a, float b) { a += b; }
__device__ __forceinline__ void accumulate(float4& a, const float4& b) {
  a.x += b.x;
  a.y += b.y;
  a.z += b.z;
  a.w += b.w;
}

// Column sums of rows [first, last) of a row-major [.][cols] matrix of T (a
// float, or a float4 holding four neighbouring columns), for cols <=
// kThreads: kThreads / cols "lanes" of threads take every lanes-th row each,
// kInFlight rows at a time into as many sums, combined in a fixed order; then
// one thread per column adds the lanes in order. Returns the sum in threads
// 0..cols-1.
template <class T>
__device__ T lane_column_sum(const T* m, int64_t first, int64_t last, int64_t cols, T* shared,
                             bool cached) {
  constexpr int kInFlight = 8;
  const int lanes = int(kThreads) / static_cast<int>(cols);
  const int lane = threadIdx.x / static_cast<int>(cols), c = threadIdx.x % static_cast<int>(cols);
  auto at = [&](int64_t r) { return cached ? __ldcg(m + r * cols + c) : m[r * cols + c]; };
  T acc[kInFlight] = {};
  if (lane < lanes) {
    int64_t r = first + lane;
    for (; r + (kInFlight - 1) * lanes < last; r += kInFlight * lanes) {
      T v[kInFlight];
#pragma unroll
      for (int i = 0; i < kInFlight; ++i) v[i] = at(r + i * lanes);
#pragma unroll
      for (int i = 0; i < kInFlight; ++i) accumulate(acc[i], v[i]);
    }
    for (; r < last; r += lanes) accumulate(acc[0], at(r));
  }
#pragma unroll
  for (int width = kInFlight / 2; width > 0; width /= 2) {
#pragma unroll
    for (int i = 0; i < width; ++i) accumulate(acc[i], acc[i + width]);
  }
  shared[threadIdx.x] = acc[0];
  __syncthreads();
  T total = {};
  if (threadIdx.x < cols) {
    for (int l = 0; l < lanes; ++l) accumulate(total, shared[l * cols + threadIdx.x]);
  }
  __syncthreads();
  return total;
}

// Each block's partial sums of its rows, then, in the last block, the sums of
// the partials. T is float4 where four columns are read as one (cols % 4 ==
// 0, 16-byte aligned); cols counts T.
template <class T>
__global__ void __launch_bounds__(kThreads)
    column_sum_kernel(const T* m, int64_t rows, int64_t cols, int64_t rows_per_block, T* partials,
                      unsigned* counter, T* out) {
  __shared__ T shared[kThreads];
  begin_after_prior_kernels();
  const int64_t first = int64_t(blockIdx.x) * rows_per_block;
  const int64_t last = min(rows, first + rows_per_block);
  const bool narrow = cols <= int64_t(kThreads);
  if (narrow) {
    const T sum = lane_column_sum(m, first, last, cols, shared, false);
    if (threadIdx.x < cols) partials[int64_t(blockIdx.x) * cols + threadIdx.x] = sum;
  } else {
    for (int64_t c = threadIdx.x; c < cols; c += kThreads) {
      T acc = {};
      for (int64_t r = first; r < last; ++r) accumulate(acc, m[r * cols + c]);
      partials[int64_t(blockIdx.x) * cols + c] = acc;
    }
  }
  if (!last_block_done(counter)) return;
  if (narrow) {
    const T sum =
        lane_column_sum(static_cast<const T*>(partials), 0, gridDim.x, cols, shared, true);
    if (threadIdx.x < cols) out[threadIdx.x] = sum;
  } else {
    for (int64_t c = threadIdx.x; c < cols; c += kThreads) {
      T acc = {};
      for (unsigned b = 0; b < gridDim.x; ++b) {
        accumulate(acc, __ldcg(partials + int64_t(b) * cols + c));
      }
      out[c] = acc;
    }
  }
  if (threadIdx.x == 0) *counter = 0;
}

__global__ void __launch_bounds__(kThreads)
    row_squares_kernel(const float* m, int64_t rows, int64_t cols, float* out) {
  begin_after_prior_kernels();
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
  launch(ctx, "mse_kernel", mse_kernel, blocks, kThreads, 0, pred, target, grad, count, grad_scale,
         partials, counter(ctx, kMseCounter), loss);
}

void column_sums(Context& ctx, const float* m, int64_t rows, int64_t cols, float* out) {
  // The grid depends on the shape only: a fixed summation order.
  const int64_t blocks = std::max<int64_t>(1, std::min<int64_t>(kMaxColumnSumBlocks, rows / 64));
  const int64_t rows_per_block = (rows + blocks - 1) / blocks;
  float* partials = ctx.reduction_area.get(static_cast<size_t>(blocks * cols));
  unsigned* ticket = counter(ctx, kColumnSumCounter);
  using cae_plugin::cuda::aligned_to;
  if (cols % 4 == 0 && aligned_to(m, 16) && aligned_to(partials, 16) && aligned_to(out, 16)) {
    launch(ctx, "column_sum_kernel", column_sum_kernel<float4>, static_cast<unsigned>(blocks),
           kThreads, 0, reinterpret_cast<const float4*>(m), rows, cols / 4, rows_per_block,
           reinterpret_cast<float4*>(partials), ticket, reinterpret_cast<float4*>(out));
  } else {
    launch(ctx, "column_sum_kernel", column_sum_kernel<float>, static_cast<unsigned>(blocks),
           kThreads, 0, m, rows, cols, rows_per_block, partials, ticket, out);
  }
}

void row_squares(Context& ctx, const float* m, int64_t rows, int64_t cols, float* out) {
  const unsigned blocks = cae_plugin::cuda::grid_for(rows * 32, kThreads);
  launch(ctx, "row_squares_kernel", row_squares_kernel, blocks, kThreads, 0, m, rows, cols, out);
}

}  // namespace cae_cuda
