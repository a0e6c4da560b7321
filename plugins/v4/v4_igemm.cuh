// v4's one GEMM kernel: D[M x N] = A[M x K] * B[N x K]^T on BF16 tensor cores
// (wgmma, FP32 accumulators) with both operands copied from BF16 tensors into
// shared memory by cp.async (v4_operands.cuh), and D consumed by an epilogue
// (v4_epilogues.cuh). Without register staging or conversion on the way, a
// thread keeps several K tiles of copies in flight while the tensor cores work.
// (The first v4 converted FP32 operands on the way, so each tile passed
// through registers and one was in flight: 55-110 TFLOP/s, docs/PERF.md.)
//
// A block is two warpgroups (256 threads) and owns a 128 x BN tile of D. K
// advances 64 at a time through kStages shared-memory stages: at step i the
// copies of tiles i + 1 .. i + kStages - 2 are in flight, tile i + kStages - 1
// is issued into the stage that step i - 1 read, and the tensor cores
// multiply tile i. blockIdx.z selects a slice of the K tiles (split-K).
#pragma once

#include <cstdint>

#include "async_copy.cuh"
#include "programmatic_launch.cuh"
#include "v4_operands.cuh"
#include "v4_wgmma.cuh"

namespace cae_v4 {

using cae_plugin::cuda::commit_copies;
using cae_plugin::cuda::copy_chunk_async;
using cae_plugin::cuda::wait_copies;

constexpr int kBlockThreads = 256;
constexpr int kTileM = 128;

template <int BN, int kStages>
struct TileShape {
  static constexpr uint32_t a_bytes = kTileM * kTileK * 2;
  static constexpr uint32_t b_bytes = BN * kTileK * 2;
  static constexpr uint32_t stage_bytes = a_bytes + b_bytes;
  static constexpr uint32_t shared_bytes = kStages * stage_bytes;
};

// Stages per tile width: two blocks per multiprocessor fit in shared memory
// (2 x 3 x 32 KiB for 128-wide tiles, 2 x 4 x 24 KiB for 64-wide ones).
template <int BN>
struct Stages {
  static constexpr int value = BN >= 128 ? 3 : 4;
};

// One operand's copies for a ROWS x 64 tile: thread t issues chunks
// f = t + 256 i. Consecutive f run along 8 lines first (8 rows of a K-major
// tile, or 8 k of an MN-major one: 128 contiguous bytes of shared memory),
// then along parts: a warp copies 8 lines x 4 parts, i.e. 64 contiguous bytes
// of each of 8 pixels, with no bank conflicts on the shared-memory side.
template <int ROWS, class Operand>
struct TileLoader {
  static constexpr int kParts = Operand::kMnMajor ? ROWS / 8 : kChunksPerRow;
  static constexpr int kChunks = ROWS * kChunksPerRow;
  static constexpr int kPerThread = (kChunks + kBlockThreads - 1) / kBlockThreads;

  const Operand op;  // by value: a kernel parameter whose address is taken would go to local memory
  typename Operand::Slot slots[kPerThread];
  uint32_t offsets[kPerThread];  // byte offset of the chunk in a tile

  __device__ static bool owns(int i) {
    return kChunks % kBlockThreads == 0 || int(threadIdx.x) + i * kBlockThreads < kChunks;
  }
  __device__ TileLoader(const Operand& operand, int origin) : op(operand) {
#pragma unroll
    for (int i = 0; i < kPerThread; ++i) {
      const int f = int(threadIdx.x) + i * kBlockThreads;
      const int rest = f / 8, part = rest % kParts, line = (rest / kParts) * 8 + f % 8;
      if (owns(i)) slots[i] = op.slot(line, part, origin);
      // Core matrix (row group, K chunk) at (group * 8 + chunk) * 128, its
      // 8 lines 16 bytes apart: K-major line = row; MN-major line = k.
      offsets[i] = Operand::kMnMajor
                       ? (uint32_t(part) * 8 + uint32_t(line >> 3)) * kCoreMatrixBytes +
                             uint32_t(line & 7) * 16
                       : tile_offset(line, part);
    }
  }
  __device__ void issue(int k_tile, uint32_t tile) const {
#pragma unroll
    for (int i = 0; i < kPerThread; ++i) {
      if (owns(i)) {
        bool valid;
        const void* source = op.source(slots[i], k_tile, valid);
        copy_chunk_async<Operand::kCacheInL1>(tile + offsets[i], source, valid);
      }
    }
  }
};

// Hands a warpgroup's 64 x BN accumulators to the epilogue. Accumulator
// layout of m64nNk16: warp w of the warpgroup holds rows 16 w + lane / 4 and
// + 8; each 8-column group j holds columns 8 j + 2 (lane % 4) and + 1, as
// acc[4 j .. 4 j + 3].
template <int BN, class Epilogue>
__device__ __forceinline__ void store_accumulators(const float (&acc)[BN / 2],
                                                   const Epilogue& epilogue, int m0, int n0,
                                                   int warpgroup) {
  const int lane = int(threadIdx.x) % 32, warp = (int(threadIdx.x) % 128) / 32;
  const int row = m0 + warpgroup * 64 + warp * 16 + lane / 4;
#pragma unroll
  for (int j = 0; j < BN / 8; ++j) {
    const int col = n0 + j * 8 + 2 * (lane % 4);
    epilogue.store(row, col, acc[4 * j + 0], acc[4 * j + 1]);
    epilogue.store(row + 8, col, acc[4 * j + 2], acc[4 * j + 3]);
  }
}

template <int BN, class OperandA, class OperandB, class Epilogue>
__global__ void __launch_bounds__(kBlockThreads, 2)
    igemm_kernel(const OperandA a, const OperandB b, const Epilogue epilogue, int k_tiles,
                 int k_tiles_per_split) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  constexpr int kStages = Stages<BN>::value;
  using Shape = TileShape<BN, kStages>;
  extern __shared__ __align__(1024) unsigned char shared[];
  const int m0 = int(blockIdx.x) * kTileM, n0 = int(blockIdx.y) * BN;
  const int k_begin = int(blockIdx.z) * k_tiles_per_split;
  const int tiles = min(k_begin + k_tiles_per_split, k_tiles) - k_begin;
  const int warpgroup = int(threadIdx.x) / 128;
  const uint32_t base = shared_address(shared);
  cae_plugin::cuda::begin_after_prior_kernels();

  const TileLoader<kTileM, OperandA> load_a(a, m0);
  const TileLoader<BN, OperandB> load_b(b, n0);
  float acc[BN / 2];
#pragma unroll
  for (int i = 0; i < BN / 2; ++i) acc[i] = 0.0f;

  auto issue = [&](int i) {
    const uint32_t stage = base + uint32_t(i % kStages) * Shape::stage_bytes;
    load_a.issue(k_begin + i, stage);
    load_b.issue(k_begin + i, stage + Shape::a_bytes);
  };
#pragma unroll
  for (int s = 0; s < kStages - 1; ++s) {
    if (s < tiles) issue(s);
    commit_copies();
  }
  for (int i = 0; i < tiles; ++i) {
    // Tile i's copies (this thread's) have landed; the fence hands them to
    // the tensor cores' proxy, the barrier waits for every thread's, and also
    // for every warpgroup to have finished step i - 1's wgmma (waited below),
    // whose stage the next issue overwrites.
    wait_copies<kStages - 2>();
    fence_shared_for_tensor_cores();
    __syncthreads();
    if (i + kStages - 1 < tiles) issue(i + kStages - 1);
    commit_copies();

    const uint32_t stage = base + uint32_t(i % kStages) * Shape::stage_bytes;
    const uint32_t a_base = stage + uint32_t(warpgroup) * 8 * kRowGroupBytes;
    const uint32_t b_base = stage + Shape::a_bytes;
    wgmma_fence();
#pragma unroll
    for (int step = 0; step < kTileK / 16; ++step) {
      Wgmma<BN, OperandA::kMnMajor, OperandB::kMnMajor>::run(
          acc, tile_descriptor(a_base + step * kStepBytes),
          tile_descriptor(b_base + step * kStepBytes));
    }
    wgmma_commit();
    wgmma_wait_all();
    pin_accumulators(acc);
  }

  store_accumulators<BN>(acc, epilogue, m0, n0, warpgroup);
#else
  // Built for sm_90a only; other devices are refused before any launch.
  (void)a, (void)b, (void)epilogue, (void)k_tiles, (void)k_tiles_per_split;
#endif
}

}  // namespace cae_v4
