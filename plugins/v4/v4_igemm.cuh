// v4's one GEMM kernel: D[M x N] = A[M x K] * B[N x K]^T on BF16 tensor cores
// (wgmma, FP32 accumulators), with A and B produced by operand loaders
// (v4_operands.cuh) and D consumed by an epilogue (v4_epilogues.cuh).
//
// A block is two warpgroups (256 threads) and owns a 128 x BN tile of D; each
// warpgroup multiplies its 64 rows. K advances 64 at a time through two
// shared-memory stages: while the tensor cores work on stage s (wgmma is
// asynchronous), every thread converts the next K tile, whose loads it issued
// one iteration earlier, stores it into stage s ^ 1, issues the loads of the
// tile after it into registers, then waits for the tensor cores. Loads thus
// have a whole iteration to arrive. blockIdx.z selects a slice of
// the K tiles (split-K for the weight gradients, whose K is the pixel count).
#pragma once

#include <cstdint>

#include "v4_operands.cuh"
#include "v4_wgmma.cuh"

namespace cae_v4 {

constexpr int kBlockThreads = 256;
constexpr int kTileM = 128;

template <int BN>
struct TileShape {
  static constexpr uint32_t a_bytes = kTileM * kTileK * 2;
  static constexpr uint32_t b_bytes = BN * kTileK * 2;
  static constexpr uint32_t stage_bytes = a_bytes + b_bytes;
  static constexpr uint32_t shared_bytes = 2 * stage_bytes;
  static constexpr int accumulators = BN / 2;
};

// One tile's operand: every thread's chunks of ROWS x 64, loaded into
// registers (load) and later converted and written to a stage (store).
template <int ROWS, class Operand>
struct TileLoader {
  static constexpr int kChunks = ROWS * kChunksPerRow;
  static constexpr int kPerThread = (kChunks + kBlockThreads - 1) / kBlockThreads;
  static_assert(kBlockThreads % ROWS == 0 || ROWS % kBlockThreads == 0, "row mapping");

  const Operand op;  // by value: a kernel parameter whose address is taken would go to local memory
  typename Operand::Row rows[kPerThread];
  typename Operand::Raw raw[kPerThread];

  // Thread t's chunk i is (row (t + 256 i) % ROWS, chunk (t + 256 i) / ROWS):
  // consecutive threads take consecutive rows (coalesced gathers, conflict-free
  // stores), and each thread's rows stay the same for the whole K loop.
  __device__ TileLoader(const Operand& operand, int row0) : op(operand) {
#pragma unroll
    for (int i = 0; i < kPerThread; ++i) {
      const int id = int(threadIdx.x) + i * kBlockThreads;
      rows[i] = op.row(row0 + id % ROWS);
    }
  }
  __device__ static bool owns(int i) {
    return kChunks % kBlockThreads == 0 || int(threadIdx.x) + i * kBlockThreads < kChunks;
  }
  __device__ void load(int k_tile) {
#pragma unroll
    for (int i = 0; i < kPerThread; ++i) {
      if (owns(i)) {
        const int id = int(threadIdx.x) + i * kBlockThreads;
        raw[i] = op.load(rows[i], k_tile * kTileK + (id / ROWS) * 8);
      }
    }
  }
  __device__ void store(unsigned char* tile) const {
#pragma unroll
    for (int i = 0; i < kPerThread; ++i) {
      if (owns(i)) {
        const int id = int(threadIdx.x) + i * kBlockThreads;
        *reinterpret_cast<uint4*>(tile + tile_offset(id % ROWS, id / ROWS)) =
            Operand::pack(raw[i]);
      }
    }
  }
};

template <int BN, class OperandA, class OperandB, class Epilogue>
// Tiles up to 64 wide fit two blocks per multiprocessor (<= 128 registers):
// the second block's loads hide the first one's latency.
__global__ void __launch_bounds__(kBlockThreads, BN <= 64 ? 2 : 1)
    igemm_kernel(const OperandA a, const OperandB b, const Epilogue epilogue, int k_tiles,
                 int k_tiles_per_split) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  using Shape = TileShape<BN>;
  extern __shared__ __align__(1024) unsigned char shared[];
  const int m0 = int(blockIdx.x) * kTileM, n0 = int(blockIdx.y) * BN;
  const int k_begin = int(blockIdx.z) * k_tiles_per_split;
  const int k_end = min(k_begin + k_tiles_per_split, k_tiles);
  const int warpgroup = int(threadIdx.x) / 128;

  TileLoader<kTileM, OperandA> load_a(a, m0);
  TileLoader<BN, OperandB> load_b(b, n0);
  float acc[Shape::accumulators];
#pragma unroll
  for (int i = 0; i < Shape::accumulators; ++i) acc[i] = 0.0f;

  if (k_begin < k_end) {
    load_a.load(k_begin);
    load_b.load(k_begin);
    load_a.store(shared);
    load_b.store(shared + Shape::a_bytes);
    fence_shared_for_tensor_cores();
    __syncthreads();
  }
  if (k_begin + 1 < k_end) {
    load_a.load(k_begin + 1);
    load_b.load(k_begin + 1);
  }
  for (int kt = k_begin; kt < k_end; ++kt) {
    unsigned char* stage = shared + ((kt - k_begin) & 1) * Shape::stage_bytes;
    const uint32_t a_base = shared_address(stage) + uint32_t(warpgroup) * 8 * kRowGroupBytes;
    const uint32_t b_base = shared_address(stage + Shape::a_bytes);
    wgmma_fence();
#pragma unroll
    for (int step = 0; step < kTileK / 16; ++step) {
      Wgmma<BN>::run(acc, tile_descriptor(a_base + step * kStepBytes),
                     tile_descriptor(b_base + step * kStepBytes));
    }
    wgmma_commit();
    if (kt + 1 < k_end) {
      // The other stage was last read by the previous step's wgmma, which
      // every warpgroup waited for before the barrier that ended that step.
      unsigned char* next = shared + ((kt + 1 - k_begin) & 1) * Shape::stage_bytes;
      load_a.store(next);
      load_b.store(next + Shape::a_bytes);
      fence_shared_for_tensor_cores();
      if (kt + 2 < k_end) {
        load_a.load(kt + 2);
        load_b.load(kt + 2);
      }
    }
    wgmma_wait_all();
    pin_accumulators(acc);
    __syncthreads();
  }

  // Accumulator layout of m64nNk16: warp w of the warpgroup holds rows
  // 16 w + lane / 4 and + 8; each 8-column group j holds columns
  // 8 j + 2 (lane % 4) and + 1, as acc[4 j .. 4 j + 3].
  const int lane = int(threadIdx.x) % 32, warp = (int(threadIdx.x) % 128) / 32;
  const int row = m0 + warpgroup * 64 + warp * 16 + lane / 4;
#pragma unroll
  for (int j = 0; j < BN / 8; ++j) {
    const int col = n0 + j * 8 + 2 * (lane % 4);
    epilogue.store(row, col, acc[4 * j + 0], acc[4 * j + 1]);
    epilogue.store(row + 8, col, acc[4 * j + 2], acc[4 * j + 3]);
  }
#else
  // Built for sm_90a only; other devices are refused before any launch.
  (void)a, (void)b, (void)epilogue, (void)k_tiles, (void)k_tiles_per_split;
#endif
}

}  // namespace cae_v4
