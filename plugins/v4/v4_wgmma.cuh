// Hopper's warpgroup matrix instructions as v4's GEMM uses them: shared-memory
// descriptors of the tile layout below, and the fences and waits around the
// asynchronous wgmma.
//
// Tile layout in shared memory ("K-major, no swizzle"): a tile of R rows by
// 64 BF16 values of K is cut into 8x8 core matrices (8 rows x 16 bytes, 128
// contiguous bytes, rows 16 bytes apart). Core matrix (row group g, K chunk
// j) starts at (g * 8 + j) * 128 bytes: the 8 chunks of one row group are
// neighbours (LBO, the K-direction step, is 128 bytes) and row groups are 1024
// bytes apart (SBO). One m64nNk16 step reads two K chunks; the next step starts
// 256 bytes further. A thread that fills one 16-byte chunk of a row writes one
// core-matrix row, and consecutive rows go to consecutive 16-byte slots: the
// loaders' stores are free of bank conflicts.
#pragma once

#include <cstdint>

#include "v4_wgmma_shapes.cuh"

namespace cae_v4 {

constexpr int kTileK = 64;                  // BF16 values of K per stage
constexpr int kChunksPerRow = kTileK / 8;   // 16-byte chunks per tile row
constexpr uint32_t kCoreMatrixBytes = 128;  // LBO
constexpr uint32_t kRowGroupBytes = kChunksPerRow * kCoreMatrixBytes;  // SBO
constexpr uint32_t kStepBytes = 2 * kCoreMatrixBytes;                  // one k16 step along K

// Byte offset of (row, chunk) in a tile.
__device__ __forceinline__ uint32_t tile_offset(int row, int chunk) {
  return (uint32_t(row >> 3) * kChunksPerRow + uint32_t(chunk)) * kCoreMatrixBytes +
         uint32_t(row & 7) * 16u;
}

// Descriptor bits: start address >> 4 in [0, 14), LBO >> 4 in [16, 30),
// SBO >> 4 in [32, 46), swizzle mode 0 ("none") in [62, 64).
__device__ __forceinline__ uint64_t tile_descriptor(uint32_t shared_address) {
  return uint64_t((shared_address & 0x3FFFF) >> 4) | (uint64_t(kCoreMatrixBytes >> 4) << 16) |
         (uint64_t(kRowGroupBytes >> 4) << 32);
}

__device__ __forceinline__ uint32_t shared_address(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
// Orders this warpgroup's register accesses before the next wgmma reads or
// writes the accumulators.
__device__ __forceinline__ void wgmma_fence() {
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
}
__device__ __forceinline__ void wgmma_commit() {
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
}
__device__ __forceinline__ void wgmma_wait_all() {
  asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
}
// Waits until at most `Pending` committed wgmma groups are still running.
template <int Pending>
__device__ __forceinline__ void wgmma_wait() {
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(Pending) : "memory");
}
// Ordinary shared-memory stores become visible to the tensor cores (the
// "async proxy") only after this fence in the writing thread.
__device__ __forceinline__ void fence_shared_for_tensor_cores() {
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
}
// Keeps the accumulators in registers across the asynchronous wgmma: the
// compiler may not move them while the tensor cores own them.
template <int Count>
__device__ __forceinline__ void pin_accumulators(float (&acc)[Count]) {
#pragma unroll
  for (int i = 0; i < Count; ++i) asm volatile("" : "+f"(acc[i])::"memory");
}
#endif

}  // namespace cae_v4
