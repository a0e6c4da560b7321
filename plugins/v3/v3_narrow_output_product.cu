// The narrow-output product (v3_narrow_output_product.hpp). Each warp takes
// 16 rows of X at a time (a persistent grid walks them); per 32 channels
// c0..c0+31 of a row, lane (g, t) loads the float4s at c0 + 4t and c0 + 16 + 4t
// of rows g and g + 8, and K step e (0..3) of those 32 channels multiplies
// channels c0 + 4t + e (fragment column t) and c0 + 16 + 4t + e (column t + 4).
// W's fragments follow the same permutation; the block writes them to shared
// memory once, in lane order, so each is one conflict-free 8-byte load.
// mma.sync m16n8k8 on TF32 operands (rounded to nearest), FP32 accumulation;
// each output element is one thread's fixed sequence of steps: deterministic.
#include <cuda_runtime.h>

#include <cstdint>

#include "kernel_queries.cuh"
#include "tensor_core_fragments.cuh"
#include "v3_launch.cuh"
#include "v3_narrow_output_product.hpp"

namespace cae_v3 {

namespace {

constexpr int kMaxOutputs = 32;  // 4 n-tiles of 8
constexpr int kOutputTiles = kMaxOutputs / 8;
constexpr int kChunk = 32;  // channels per 4 K steps
constexpr int kMaxK = 256;
constexpr int kChunksInFlight = 4;  // 16 float4 loads per lane issued together
constexpr int kWarps = 8;
constexpr int kBlockThreads = kWarps * 32;

struct NarrowOutputJob {
  const float* x;  // [rows][ldx]
  int64_t ldx;
  const float* w;  // [outputs][ldw]
  int64_t ldw;
  float* d;  // [rows][ldd]
  int64_t ldd;
  int64_t rows;
  int32_t k;
  int32_t outputs;
};

using cae_plugin::cuda::aligned_to;
using cae_plugin::cuda::mma_m16n8k8_tf32;
using cae_plugin::cuda::ptx_version_of;
using cae_plugin::cuda::resident_blocks_of;
using cae_plugin::cuda::tf32_of;

__global__ void __launch_bounds__(kBlockThreads, 2)
    narrow_output_product_kernel(const NarrowOutputJob job) {
  // W's fragments: [chunk][step e][n-tile j][lane] -> (b0, b1).
  __shared__ uint2 w_fragments[kMaxK / kChunk * 4 * kOutputTiles * 32];
  begin_after_prior_kernels();
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const int g = lane / 4, t = lane % 4;
  const int chunks = job.k / kChunk;
  for (int f = threadIdx.x; f < chunks * 4 * kOutputTiles * 32; f += kBlockThreads) {
    const int l = f % 32, j = (f / 32) % kOutputTiles, e = (f / (32 * kOutputTiles)) % 4;
    const int chunk = f / (32 * kOutputTiles * 4);
    const int i = 8 * j + l / 4, c = chunk * kChunk + 4 * (l % 4) + e;
    const float* row = job.w + int64_t(i) * job.ldw;
    w_fragments[f] =
        i < job.outputs ? make_uint2(tf32_of(row[c]), tf32_of(row[c + 16])) : make_uint2(0u, 0u);
  }
  __syncthreads();

  const int64_t row_tiles = (job.rows + 15) / 16;
  const float4 zero = make_float4(0.f, 0.f, 0.f, 0.f);
  for (int64_t tile = int64_t(blockIdx.x) * kWarps + warp; tile < row_tiles;
       tile += int64_t(gridDim.x) * kWarps) {
    const int64_t top = tile * 16 + g, bottom = top + 8;
    const bool top_in = top < job.rows, bottom_in = bottom < job.rows;
    const float* top_row = job.x + top * job.ldx + 4 * t;
    const float* bottom_row = job.x + bottom * job.ldx + 4 * t;
    float acc[kOutputTiles][4] = {};
    for (int first = 0; first < chunks; first += kChunksInFlight) {
      float4 v[kChunksInFlight][4];  // top c, top c + 16, bottom c, bottom c + 16
#pragma unroll
      for (int u = 0; u < kChunksInFlight; ++u) {
        const int c = (first + u) * kChunk;
        const bool chunk_in = first + u < chunks;
        v[u][0] = chunk_in && top_in ? *reinterpret_cast<const float4*>(top_row + c) : zero;
        v[u][1] = chunk_in && top_in ? *reinterpret_cast<const float4*>(top_row + c + 16) : zero;
        v[u][2] = chunk_in && bottom_in ? *reinterpret_cast<const float4*>(bottom_row + c) : zero;
        v[u][3] =
            chunk_in && bottom_in ? *reinterpret_cast<const float4*>(bottom_row + c + 16) : zero;
      }
#pragma unroll
      for (int u = 0; u < kChunksInFlight; ++u) {
        if (first + u >= chunks) break;
        const float parts[4][4] = {{v[u][0].x, v[u][0].y, v[u][0].z, v[u][0].w},
                                   {v[u][1].x, v[u][1].y, v[u][1].z, v[u][1].w},
                                   {v[u][2].x, v[u][2].y, v[u][2].z, v[u][2].w},
                                   {v[u][3].x, v[u][3].y, v[u][3].z, v[u][3].w}};
#pragma unroll
        for (int e = 0; e < 4; ++e) {
          // a0: row g, column t; a1: row g + 8; a2: column t + 4 (channel + 16); a3: both.
          const uint32_t a[4] = {tf32_of(parts[0][e]), tf32_of(parts[2][e]), tf32_of(parts[1][e]),
                                 tf32_of(parts[3][e])};
          const uint2* b = w_fragments + (((first + u) * 4 + e) * kOutputTiles) * 32 + lane;
#pragma unroll
          for (int j = 0; j < kOutputTiles; ++j) {
            const uint2 bj = b[j * 32];
            mma_m16n8k8_tf32(acc[j], a, bj.x, bj.y);
          }
        }
      }
    }
    // c0, c1: row g, outputs 2t, 2t + 1; c2, c3: row g + 8.
#pragma unroll
    for (int j = 0; j < kOutputTiles; ++j) {
      const int i = 8 * j + 2 * t;
#pragma unroll
      for (int half = 0; half < 2; ++half) {
        if (!(half ? bottom_in : top_in)) continue;
        float* out = job.d + (half ? bottom : top) * job.ldd;
        if (i < job.outputs) out[i] = acc[j][2 * half];
        if (i + 1 < job.outputs) out[i + 1] = acc[j][2 * half + 1];
      }
    }
  }
}

}  // namespace

bool narrow_output_product_fits(const GemmCall& c) {
  // Code for 8.0+ (TF32 mma) runs only on 8.0+ devices.
  static const bool available = ptx_version_of(narrow_output_product_kernel) >= 80;
  return available && c.transpose_a && !c.transpose_b && c.batch == 1 && !c.exact_fp32 &&
         c.epilogue == Epilogue::none && c.m >= 1 && c.m <= kMaxOutputs && c.k >= kChunk &&
         c.k <= kMaxK && c.k % kChunk == 0 && c.n >= 1 && c.lda >= c.k && c.ldb >= c.k &&
         c.ldb % 4 == 0 && aligned_to(c.b, 16) && c.ldd >= c.m;
}

void narrow_output_product(Context& ctx, const GemmCall& c) {
  const NarrowOutputJob job{c.b,
                            c.ldb,
                            c.a,
                            c.lda,
                            c.d,
                            c.ldd,
                            c.n,
                            static_cast<int32_t>(c.k),
                            static_cast<int32_t>(c.m)};
  // One GPU model per machine in practice: asked once per process.
  static const int per_multiprocessor =
      resident_blocks_of(narrow_output_product_kernel, kBlockThreads);
  const int64_t row_tiles = (c.n + 15) / 16;
  const int64_t needed = (row_tiles + kWarps - 1) / kWarps;
  const int64_t wanted = int64_t(ctx.multiprocessors) * per_multiprocessor;
  launch(ctx, "narrow_output_product_kernel", narrow_output_product_kernel,
         static_cast<unsigned>(needed < wanted ? needed : wanted), kBlockThreads, 0, job);
}

}  // namespace cae_v3
