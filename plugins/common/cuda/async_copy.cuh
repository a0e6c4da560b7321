// Ampere-style asynchronous copies (cp.async) from global to shared memory, as
// v4's multi-stage GEMM and v3's short-K product issue them: 16 bytes per
// copy, zero-filled when the source lies outside the tensor (image borders,
// rows past the matrix), so the padding of an implicit GEMM costs no branch
// around the copy.
#pragma once

#include <cstdint>

namespace cae_plugin {
namespace cuda {

// Copies 16 bytes from `source` to shared address `target`, or writes 16 zero
// bytes when !valid (source is then not read, but must still be a mapped
// address: callers pass the tensor's base). kCacheInL1: keep the line in L1
// (.ca) for data the block reads again soon; otherwise through L2 only (.cg).
template <bool kCacheInL1>
__device__ __forceinline__ void copy_chunk_async(uint32_t target, const void* source, bool valid) {
  if (kCacheInL1) {
    asm volatile("cp.async.ca.shared.global [%0], [%1], 16, %2;\n" ::"r"(target), "l"(source),
                 "r"(valid ? 16 : 0)
                 : "memory");
  } else {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(target), "l"(source),
                 "r"(valid ? 16 : 0)
                 : "memory");
  }
}

// Closes the group of copies issued since the last commit (possibly empty:
// every thread commits once per K tile so that group counts stay uniform).
__device__ __forceinline__ void commit_copies() {
  asm volatile("cp.async.commit_group;\n" ::: "memory");
}

// Waits until at most `Pending` of this thread's committed groups are still in flight.
template <int Pending>
__device__ __forceinline__ void wait_copies() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(Pending) : "memory");
}

}  // namespace cuda
}  // namespace cae_plugin
