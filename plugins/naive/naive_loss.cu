// Mean squared error, bit-reproducible: per-block partial sums in double
// written to a buffer, then a single block adds them up. Both stages reduce
// in a fixed tree order, and the number of blocks depends only on the
// element count, so the same inputs always give the same bits.
#include <algorithm>

#include "naive_kernels.cuh"
#include "naive_ops.hpp"
#include "naive_storage_index.cuh"

namespace naive {
namespace {

// Caps stage 1's grid, so that stage 2 has few partials to add.
constexpr unsigned kMaxPartialBlocks = 1024;

// Sums values[0 .. blockDim.x) into values[0] by halving, in a fixed order.
// blockDim.x must be a power of two (kThreadsPerBlock is).
__device__ void block_tree_sum(double* values) {
  __syncthreads();
  for (unsigned half = blockDim.x / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) values[threadIdx.x] += values[threadIdx.x + half];
    __syncthreads();
  }
}

// Stage 1: every thread accumulates (pred - target)^2 over its grid-stride
// elements and writes grad there (when requested); each block stores the
// sum of its threads in partials[blockIdx.x].
__global__ void mse_partial_sums_kernel(const float* pred, const float* target, float* grad,
                                        double* partials, int64_t count, double grad_scale,
                                        StorageOrder pred_order, StorageOrder target_order,
                                        StorageOrder grad_order) {
  __shared__ double thread_sums[kThreadsPerBlock];
  double sum = 0.0;
  for (int64_t i = global_thread_index(); i < count; i += grid_thread_count()) {
    const double diff = static_cast<double>(pred[storage_index(pred_order, i)]) -
                        static_cast<double>(target[storage_index(target_order, i)]);
    sum += diff * diff;
    if (grad) grad[storage_index(grad_order, i)] = static_cast<float>(grad_scale * diff);
  }
  thread_sums[threadIdx.x] = sum;
  block_tree_sum(thread_sums);
  if (threadIdx.x == 0) partials[blockIdx.x] = thread_sums[0];
}

// Stage 2, one block: thread t adds partials t, t + blockDim.x, ... in order,
// then the block's tree gives the total.
__global__ void mse_final_sum_kernel(const double* partials, unsigned partial_count, int64_t count,
                                     float* loss) {
  __shared__ double thread_sums[kThreadsPerBlock];
  double sum = 0.0;
  for (unsigned p = threadIdx.x; p < partial_count; p += blockDim.x) sum += partials[p];
  thread_sums[threadIdx.x] = sum;
  block_tree_sum(thread_sums);
  if (threadIdx.x == 0) loss[0] = static_cast<float>(thread_sums[0] / static_cast<double>(count));
}

}  // namespace

void mse_loss(cae_context_s& ctx, const cae_tensor_s& pred, const cae_tensor_s& target,
              cae_tensor_s& loss, cae_tensor_s* grad) {
  const auto orders = elementwise_orders({&pred, &target, grad});
  const int64_t count = pred.shape.count();
  const unsigned blocks = std::min(blocks_for(count), kMaxPartialBlocks);
  // The scratch holds doubles; cudaMalloc's alignment suits them.
  double* partials = reinterpret_cast<double*>(
      ctx.scratch_floats(ctx.loss_partials, 2 * size_t{kMaxPartialBlocks}, "mse_loss partials"));
  const double grad_scale = 2.0 / static_cast<double>(count);

  mse_partial_sums_kernel<<<blocks, kThreadsPerBlock, 0, ctx.stream>>>(
      pred.data, target.data, grad ? grad->data : nullptr, partials, count, grad_scale, orders[0],
      orders[1], orders[2]);
  CAE_CUDA_CHECK_LAUNCH("mse_partial_sums_kernel");

  mse_final_sum_kernel<<<1, kThreadsPerBlock, 0, ctx.stream>>>(partials, blocks, count, loss.data);
  CAE_CUDA_CHECK_LAUNCH("mse_final_sum_kernel");
}

}  // namespace naive
