// Hopper's bulk tensor copies (TMA) as v4's TMA GEMM uses them: one thread
// asks the copy engine for a whole tile (a box of a tensor map); the copy
// lands in shared memory in the 128-byte swizzled layout the tensor cores
// read, and completes on an mbarrier that counts the bytes. Compared with
// per-thread cp.async chunks this removes the address arithmetic of every
// 16-byte chunk and the L1 traffic of 256 threads issuing them.
//
// Swizzled tile layout ("K-major, 128-byte swizzle"): row r of a tile of 64
// BF16 values per row occupies bytes [128 r, 128 r + 128), its eight 16-byte
// chunks permuted by chunk ^= r % 8. Eight rows make a 1024-byte atom
// (SBO); the tile starts 1024-byte aligned; one k16 step is 32 bytes further
// inside the atom (the hardware applies the swizzle to the address bits).
#pragma once

#include <cuda.h>

#include <cstdint>

namespace cae_v4 {

constexpr uint32_t kSwizzleAtomBytes = 1024;  // 8 rows x 128 bytes
constexpr uint32_t kSwizzledStepBytes = 32;   // 16 BF16 values of K

// MN-major tiles (the weight gradient's): row k holds 64 BF16 values along
// M or N (128 bytes, swizzled as above); 64 rows of K make one 8 KiB atom
// column, a 128-wide operand has two side by side; one k16 step is 16 rows.
constexpr uint32_t kMnAtomColumnBytes = 64 * 128;
constexpr uint32_t kMnStepBytes = 16 * 128;

// Descriptor bits: start address >> 4 in [0, 14), LBO >> 4 in [16, 30)
// (unused by swizzled K-major tiles, 1 by convention), SBO >> 4 in [32, 46),
// swizzle mode 1 (128 bytes) in [62, 64).
__device__ __forceinline__ uint64_t swizzled_descriptor(uint32_t shared_address) {
  return uint64_t((shared_address & 0x3FFFF) >> 4) | (uint64_t(1) << 16) |
         (uint64_t(kSwizzleAtomBytes >> 4) << 32) | (uint64_t(1) << 62);
}

// MN-major, 128-byte swizzle: LBO is the stride between 64-wide atom columns
// along M or N (8 KiB), SBO the stride between 8-row groups along K (1 KiB).
// (The other order fails conformance once an operand is two atom columns
// wide.)
__device__ __forceinline__ uint64_t mn_major_descriptor(uint32_t shared_address) {
  return uint64_t((shared_address & 0x3FFFF) >> 4) | (uint64_t(kMnAtomColumnBytes >> 4) << 16) |
         (uint64_t(kSwizzleAtomBytes >> 4) << 32) | (uint64_t(1) << 62);
}

// The instructions exist in sm_90a code only: other passes see empty bodies
// (nothing launches these kernels on another device).
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define CAE_V4_SM90A(...) __VA_ARGS__
#else
#define CAE_V4_SM90A(...)
#endif

__device__ __forceinline__ void barrier_init(uint32_t barrier, uint32_t arrivals) {
  CAE_V4_SM90A(
      asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(barrier), "r"(arrivals)
                   : "memory");)
}
// Makes the initialised barriers visible to the copy engine.
__device__ __forceinline__ void fence_barrier_init() {
  CAE_V4_SM90A(asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");)
}
// The calling thread arrives and announces `bytes` of copies to come.
__device__ __forceinline__ void barrier_expect_bytes(uint32_t barrier, uint32_t bytes) {
  CAE_V4_SM90A(
      asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(barrier),
                   "r"(bytes)
                   : "memory");)
}
// Waits until the barrier's phase `parity` has completed.
__device__ __forceinline__ void barrier_wait(uint32_t barrier, uint32_t parity) {
  CAE_V4_SM90A(asm volatile("{\n.reg .pred done;\nWAIT_AGAIN:\n"
                            "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
                            "@!done bra WAIT_AGAIN;\n}\n" ::"r"(barrier),
                            "r"(parity)
                            : "memory");)
}
// Box of a 4-D tensor map at (c0, c1, c2, c3) (innermost first; coordinates
// outside the tensor read as zeros) into shared memory, completing on `barrier`.
__device__ __forceinline__ void copy_box_4d(uint32_t target, const CUtensorMap& map, int c0, int c1,
                                            int c2, int c3, uint32_t barrier) {
  CAE_V4_SM90A(
      asm volatile(
          "cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
          " [%0], [%1, {%2, %3, %4, %5}], [%6];\n" ::"r"(target),
          "l"(reinterpret_cast<uint64_t>(&map)), "r"(c0), "r"(c1), "r"(c2), "r"(c3), "r"(barrier)
          : "memory");)
}
__device__ __forceinline__ void copy_box_2d(uint32_t target, const CUtensorMap& map, int c0, int c1,
                                            uint32_t barrier) {
  CAE_V4_SM90A(
      asm volatile(
          "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
          " [%0], [%1, {%2, %3}], [%4];\n" ::"r"(target),
          "l"(reinterpret_cast<uint64_t>(&map)), "r"(c0), "r"(c1), "r"(barrier)
          : "memory");)
}

}  // namespace cae_v4
