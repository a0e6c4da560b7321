// The narrow weight-gradient product (v3_narrow_gradient.hpp). A block takes
// one chunk of pixels and up to 256 wide channels: 4 warps of 64 channels
// each, twice (two groups that take alternate steps of 8 pixels and add their
// sums in shared memory, group 0's first). Fragment rows map to channels as
// row g -> 4g + q and row g + 8 -> 32 + 4g + q in m-tile q, so one float4 per
// pixel and lane feeds four m-tiles. mma.sync m16n8k8 on TF32 operands
// (rounded to nearest), FP32 accumulation, fixed order: deterministic.
#include <cuda_runtime.h>

#include <cstdint>

#include "kernel_queries.cuh"
#include "tensor_core_fragments.cuh"
#include "v3_launch.cuh"
#include "v3_narrow_gradient.hpp"

namespace cae_v3 {

namespace {

constexpr int kWarpChannels = 64;  // 4 m-tiles of 16
constexpr int kBlockChannels = 256;
constexpr int kMaxNarrow = 32;  // 4 n-tiles of 8
constexpr int kGroups = 2;
constexpr int kSteps = 4;  // steps of 8 pixels whose loads are issued together
constexpr int kGroupWarps = kBlockChannels / kWarpChannels;
constexpr int kMaxThreads = kGroups * kGroupWarps * 32;
constexpr int kTiles = kWarpChannels / 16;
constexpr int kNarrowTiles = kMaxNarrow / 8;

struct NarrowGradientJob {
  const float* wide;  // per chunk: [pixels][ld_wide]
  int64_t ld_wide, wide_stride;
  const float* narrow;  // per chunk: [pixels][ld_narrow], narrow_count used
  int64_t ld_narrow, narrow_stride;
  int32_t narrow_count;
  int64_t pixels;  // per chunk
  float* d;
  int64_t ldd, d_stride;
  bool wide_is_m;  // D[c][i] at d[i * ldd + c]; else at d[c * ldd + i]
};

using cae_plugin::cuda::aligned_to;
using cae_plugin::cuda::mma_m16n8k8_tf32;
using cae_plugin::cuda::ptx_version_of;
using cae_plugin::cuda::tf32_of;

__global__ void __launch_bounds__(kMaxThreads, 1)
    narrow_gradient_kernel(const NarrowGradientJob job) {
  __shared__ float group_sums[kGroupWarps][kTiles * kNarrowTiles * 4][32];
  begin_after_prior_kernels();
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const int warps_per_group = blockDim.x / 32 / kGroups;
  const int group = warp / warps_per_group, warp_in_group = warp % warps_per_group;
  const int g = lane / 4, t = lane % 4;
  const int64_t chunk = blockIdx.x;
  const int first_channel = blockIdx.y * kBlockChannels + warp_in_group * kWarpChannels;
  const float* wide = job.wide + chunk * job.wide_stride + first_channel + 4 * g;
  const float* narrow = job.narrow + chunk * job.narrow_stride;

  // Each group takes runs of kSteps steps of 8 pixels in turn, and issues a
  // run's loads (16 float4 of the wide operand per lane) before its first
  // mma: about 64 KB in flight per multiprocessor, enough to keep HBM busy.
  float acc[kTiles][kNarrowTiles][4] = {};
  const int64_t steps = (job.pixels + 7) / 8;
  const float4 zero = make_float4(0.f, 0.f, 0.f, 0.f);
  for (int64_t first = int64_t(group) * kSteps; first < steps; first += kGroups * kSteps) {
    float4 w[kSteps][4];
    uint32_t b[kSteps][kNarrowTiles][2];
#pragma unroll
    for (int u = 0; u < kSteps; ++u) {
      const int64_t p0 = 8 * (first + u) + t, p1 = p0 + 4;
      const bool in0 = p0 < job.pixels, in1 = p1 < job.pixels;
      const float4* row0 = reinterpret_cast<const float4*>(wide + p0 * job.ld_wide);
      const float4* row1 = reinterpret_cast<const float4*>(wide + p1 * job.ld_wide);
      w[u][0] = in0 ? row0[0] : zero;  // channels 4g .. 4g + 3
      w[u][1] = in0 ? row0[8] : zero;  // 32 channels on
      w[u][2] = in1 ? row1[0] : zero;
      w[u][3] = in1 ? row1[8] : zero;
#pragma unroll
      for (int j = 0; j < kNarrowTiles; ++j) {
        const int i = 8 * j + g;
        const bool column = i < job.narrow_count;
        b[u][j][0] = column && in0 ? tf32_of(narrow[p0 * job.ld_narrow + i]) : 0u;
        b[u][j][1] = column && in1 ? tf32_of(narrow[p1 * job.ld_narrow + i]) : 0u;
      }
    }
#pragma unroll
    for (int u = 0; u < kSteps; ++u) {
      const float lanes[4][4] = {{w[u][0].x, w[u][0].y, w[u][0].z, w[u][0].w},
                                 {w[u][1].x, w[u][1].y, w[u][1].z, w[u][1].w},
                                 {w[u][2].x, w[u][2].y, w[u][2].z, w[u][2].w},
                                 {w[u][3].x, w[u][3].y, w[u][3].z, w[u][3].w}};
#pragma unroll
      for (int q = 0; q < kTiles; ++q) {
        const uint32_t a[4] = {tf32_of(lanes[0][q]), tf32_of(lanes[1][q]), tf32_of(lanes[2][q]),
                               tf32_of(lanes[3][q])};
#pragma unroll
        for (int j = 0; j < kNarrowTiles; ++j) {
          mma_m16n8k8_tf32(acc[q][j], a, b[u][j][0], b[u][j][1]);
        }
      }
    }
  }

  // Group 1's sums into shared memory, then group 0 adds them to its own.
  if (group == 1) {
#pragma unroll
    for (int q = 0; q < kTiles; ++q)
#pragma unroll
      for (int j = 0; j < kNarrowTiles; ++j)
#pragma unroll
        for (int e = 0; e < 4; ++e)
          group_sums[warp_in_group][(q * kNarrowTiles + j) * 4 + e][lane] = acc[q][j][e];
  }
  __syncthreads();
  if (group != 0) return;
  float* out = job.d + chunk * job.d_stride;
#pragma unroll
  for (int q = 0; q < kTiles; ++q) {
#pragma unroll
    for (int j = 0; j < kNarrowTiles; ++j) {
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        const int c = first_channel + 4 * g + q + (e >= 2 ? 32 : 0);
        const int i = 8 * j + 2 * t + (e % 2);
        if (i >= job.narrow_count) continue;
        const float sum =
            acc[q][j][e] + group_sums[warp_in_group][(q * kNarrowTiles + j) * 4 + e][lane];
        out[job.wide_is_m ? i * job.ldd + c : c * job.ldd + i] = sum;
      }
    }
  }
}

bool wide_fits(int64_t count) {
  return count % kWarpChannels == 0 && (count <= kBlockChannels || count % kBlockChannels == 0);
}

}  // namespace

bool narrow_gradient_fits(const GemmCall& c) {
  // Code for 8.0+ (TF32 mma) runs only on 8.0+ devices.
  static const bool available = ptx_version_of(narrow_gradient_kernel) >= 80;
  const bool wide_is_m = wide_fits(c.m) && c.n <= kMaxNarrow;
  const bool wide_is_n = wide_fits(c.n) && c.m <= kMaxNarrow;
  if (!available || !(wide_is_m || wide_is_n) || c.transpose_a || !c.transpose_b ||
      c.epilogue != Epilogue::none || c.exact_fp32 || c.k < 1 || c.batch < 1) {
    return false;
  }
  const float* wide = wide_is_m ? c.a : c.b;
  const int64_t ld_wide = wide_is_m ? c.lda : c.ldb;
  const int64_t wide_stride = wide_is_m ? c.batch_stride_a : c.batch_stride_b;
  const int64_t ld_narrow = wide_is_m ? c.ldb : c.lda;
  const int64_t narrow_count = wide_is_m ? c.n : c.m;
  const int64_t wide_count = wide_is_m ? c.m : c.n;
  return ld_wide >= wide_count && ld_wide % 4 == 0 && (c.batch == 1 || wide_stride % 4 == 0) &&
         aligned_to(wide, 16) && ld_narrow >= narrow_count && c.ldd >= c.m;
}

void narrow_gradient(Context& ctx, const GemmCall& c) {
  const bool wide_is_m = wide_fits(c.m) && c.n <= kMaxNarrow;
  NarrowGradientJob job{};
  job.wide = wide_is_m ? c.a : c.b;
  job.ld_wide = wide_is_m ? c.lda : c.ldb;
  job.wide_stride = wide_is_m ? c.batch_stride_a : c.batch_stride_b;
  job.narrow = wide_is_m ? c.b : c.a;
  job.ld_narrow = wide_is_m ? c.ldb : c.lda;
  job.narrow_stride = wide_is_m ? c.batch_stride_b : c.batch_stride_a;
  job.narrow_count = static_cast<int32_t>(wide_is_m ? c.n : c.m);
  job.pixels = c.k;
  job.d = c.d;
  job.ldd = c.ldd;
  job.d_stride = c.batch_stride_d;
  job.wide_is_m = wide_is_m;
  const int64_t wide_count = wide_is_m ? c.m : c.n;
  const int block_channels =
      wide_count < kBlockChannels ? static_cast<int>(wide_count) : kBlockChannels;
  const int threads = kGroups * (block_channels / kWarpChannels) * 32;
  launch(ctx, "narrow_gradient_kernel", narrow_gradient_kernel,
         dim3(static_cast<unsigned>(c.batch), static_cast<unsigned>(wide_count / block_channels)),
         threads, 0, job);
}

}  // namespace cae_v3
