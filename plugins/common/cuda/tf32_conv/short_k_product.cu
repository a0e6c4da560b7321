// The short-K product (short_k_product.hpp): one warp owns 32 output
// columns and holds their B fragments for every K step in registers; a block
// of up to 8 warps covers 256 columns; the blocks walk the pixel tiles of a
// persistent grid, 64 rows at a time, each tile's A rows staged by cp.async
// while the tile before it is multiplied and stored. mma.sync m16n8k8 on TF32
// operands (rounded to nearest), FP32 accumulation. Each output element is one
// thread's fixed sequence of K steps: deterministic.
#include <cuda_runtime.h>

#include <cstdint>

#include "async_copy.cuh"
#include "kernel_queries.cuh"
#include "runtime_launch.cuh"
#include "tensor_core_fragments.cuh"
#include "short_k_product.hpp"

namespace cae_tf32_conv {

namespace {

constexpr int kTileRows = 64;      // rows of A (pixels) per tile: 4 fragments of 16
constexpr int kMaxK = 32;          // 4 K steps of 8
constexpr int kStagedStride = 36;  // floats per staged row: 32 + 4, so that the
                                   // fragment loads (8 rows x 4 columns) hit 32 banks
constexpr int kWarpColumns = 32;   // 4 fragments of 8 columns per warp
constexpr int kBlockColumns = 256;
constexpr int kMaxThreads = kBlockColumns / kWarpColumns * 32;
constexpr int64_t kMaxGridY = 65535;  // column blocks: the launch's y dimension

struct ShortKJob {
  const float* a;  // [rows][lda], K used
  int64_t lda;
  const float* b;  // [columns][ldb], K used
  int64_t ldb;
  float* d;  // [rows][ldd]
  int64_t ldd;
  int64_t rows;
  int32_t k;
  const float* bias;  // columns floats, or null
  bool relu;
};

using cae_plugin::cuda::aligned_to;
using cae_plugin::cuda::commit_copies;
using cae_plugin::cuda::copy_chunk_async;
using cae_plugin::cuda::mma_m16n8k8_tf32;
using cae_plugin::cuda::ptx_version_of;
using cae_plugin::cuda::resident_blocks_of;
using cae_plugin::cuda::tf32_of;
using cae_plugin::cuda::wait_copies;

// Rows [first, first + 64) of A into a staged tile; rows past the end are zero.
__device__ void stage_tile(const ShortKJob& job, int64_t first, float* tile) {
  const int chunks_per_row = job.k / 4;
  for (int chunk = threadIdx.x; chunk < kTileRows * chunks_per_row; chunk += blockDim.x) {
    const int row = chunk / chunks_per_row, part = chunk - row * chunks_per_row;
    const uint32_t dst =
        static_cast<uint32_t>(__cvta_generic_to_shared(tile + row * kStagedStride + part * 4));
    const int64_t r = first + row;
    const bool inside = r < job.rows;
    copy_chunk_async<false>(dst, inside ? job.a + r * job.lda + part * 4 : job.a, inside);
  }
}

__global__ void __launch_bounds__(kMaxThreads, 2) short_k_product_kernel(const ShortKJob job) {
  __shared__ __align__(16) float staged[2][kTileRows * kStagedStride];
  begin_after_prior_kernels();
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const int group = lane / 4, in_group = lane % 4;  // the fragments' row and column roles
  const int first_column = blockIdx.y * kBlockColumns + warp * kWarpColumns;

  // B fragments: b0 = B[column g][k = 8s + t], b1 = B[g][8s + t + 4]; zero past K.
  uint32_t b_frag[kMaxK / 8][kWarpColumns / 8][2];
#pragma unroll
  for (int s = 0; s < kMaxK / 8; ++s) {
#pragma unroll
    for (int j = 0; j < kWarpColumns / 8; ++j) {
      const float* column = job.b + int64_t(first_column + 8 * j + group) * job.ldb;
      const int k0 = 8 * s + in_group, k1 = k0 + 4;
      b_frag[s][j][0] = k0 < job.k ? tf32_of(column[k0]) : 0u;
      b_frag[s][j][1] = k1 < job.k ? tf32_of(column[k1]) : 0u;
    }
  }
  float bias[kWarpColumns / 8][2];
#pragma unroll
  for (int j = 0; j < kWarpColumns / 8; ++j) {
    const int c = first_column + 8 * j + 2 * in_group;
    bias[j][0] = job.bias ? job.bias[c] : 0.f;
    bias[j][1] = job.bias ? job.bias[c + 1] : 0.f;
  }
  // The columns K..35 of both stages stay zero: copies write only [0, K).
  for (int i = threadIdx.x; i < 2 * kTileRows * kStagedStride; i += blockDim.x) {
    if (i % kStagedStride >= job.k) (&staged[0][0])[i] = 0.f;
  }

  const int64_t tiles = (job.rows + kTileRows - 1) / kTileRows;
  int64_t tile = blockIdx.x;
  int stage = 0;
  if (tile < tiles) stage_tile(job, tile * kTileRows, staged[0]);
  commit_copies();
  const int k_steps = (job.k + 7) / 8;
  for (; tile < tiles; tile += gridDim.x) {
    const int64_t next = tile + gridDim.x;
    if (next < tiles) stage_tile(job, next * kTileRows, staged[stage ^ 1]);
    commit_copies();
    wait_copies<1>();
    __syncthreads();

    const float* rows = staged[stage];
    float acc[kTileRows / 16][kWarpColumns / 8][4] = {};
#pragma unroll
    for (int s = 0; s < kMaxK / 8; ++s) {
      if (s >= k_steps) break;
#pragma unroll
      for (int i = 0; i < kTileRows / 16; ++i) {
        const float* top = rows + (16 * i + group) * kStagedStride + 8 * s + in_group;
        const float* bottom = top + 8 * kStagedStride;
        const uint32_t a[4] = {tf32_of(top[0]), tf32_of(bottom[0]), tf32_of(top[4]),
                               tf32_of(bottom[4])};
#pragma unroll
        for (int j = 0; j < kWarpColumns / 8; ++j) {
          mma_m16n8k8_tf32(acc[i][j], a, b_frag[s][j][0], b_frag[s][j][1]);
        }
      }
    }

    // c0, c1: row g, columns 2t, 2t+1; c2, c3: row g + 8.
#pragma unroll
    for (int i = 0; i < kTileRows / 16; ++i) {
#pragma unroll
      for (int half = 0; half < 2; ++half) {
        const int64_t r = tile * kTileRows + 16 * i + group + 8 * half;
        if (r >= job.rows) continue;
        float* out = job.d + r * job.ldd + first_column + 2 * in_group;
#pragma unroll
        for (int j = 0; j < kWarpColumns / 8; ++j) {
          float2 v =
              make_float2(acc[i][j][2 * half] + bias[j][0], acc[i][j][2 * half + 1] + bias[j][1]);
          if (job.relu) v = make_float2(fmaxf(v.x, 0.f), fmaxf(v.y, 0.f));
          *reinterpret_cast<float2*>(out + 8 * j) = v;
        }
      }
    }
    __syncthreads();  // every warp is done with this stage before it is refilled
    stage ^= 1;
  }
}

}  // namespace

bool short_k_product_fits(const GemmCall& c) {
  // Code for 8.0+ (TF32 mma) runs only on 8.0+ devices.
  static const bool available = ptx_version_of(short_k_product_kernel) >= 80;
  const bool columns_fit =
      c.m % kWarpColumns == 0 && (c.m <= kBlockColumns || c.m % kBlockColumns == 0);
  const bool bias_fits =
      c.epilogue == Epilogue::none ||
      ((c.epilogue == Epilogue::bias || c.epilogue == Epilogue::bias_relu) && c.bias != nullptr);
  const bool grid_fits = c.m / kBlockColumns <= kMaxGridY;
  return available && c.transpose_a && !c.transpose_b && c.batch == 1 && !c.exact_fp32 &&
         c.k >= 1 && c.k <= kMaxK && c.k % 4 == 0 && c.m >= kWarpColumns && columns_fit &&
         grid_fits && c.n >= 1 && c.lda >= c.k && c.ldb >= c.k && c.ldb % 4 == 0 && c.ldd >= c.m &&
         c.ldd % 2 == 0 && aligned_to(c.b, 16) && aligned_to(c.d, 8) && bias_fits;
}

void short_k_product(Context& ctx, const GemmCall& c) {
  const ShortKJob job{c.b,
                      c.ldb,
                      c.a,
                      c.lda,
                      c.d,
                      c.ldd,
                      c.n,
                      static_cast<int32_t>(c.k),
                      c.epilogue == Epilogue::none ? nullptr : c.bias,
                      c.epilogue == Epilogue::bias_relu};
  const int block_columns = c.m < kBlockColumns ? static_cast<int>(c.m) : kBlockColumns;
  const int threads = block_columns / kWarpColumns * 32;
  // One GPU model per machine in practice: asked once per process.
  static const int per_multiprocessor = resident_blocks_of(short_k_product_kernel, kMaxThreads);
  const int64_t tiles = (c.n + kTileRows - 1) / kTileRows;
  const int64_t wanted = int64_t(ctx.multiprocessors) * per_multiprocessor;
  const unsigned blocks = static_cast<unsigned>(tiles < wanted ? tiles : wanted);
  launch(ctx, "short_k_product_kernel", short_k_product_kernel,
         dim3(blocks, static_cast<unsigned>(c.m / block_columns)), threads, 0, job);
}

}  // namespace cae_tf32_conv
