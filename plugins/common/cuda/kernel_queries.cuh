// What the runtime can say about a kernel before it is launched: the
// virtual architecture its code for this device was compiled from, and how
// many of its blocks fit on one multiprocessor. Used to decide whether a
// hand-written kernel may run here at all (features of compute capability
// 8.0 / 9.0) and how large a persistent grid to launch.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace cae_plugin {
namespace cuda {

// The PTX version (e.g. 90 for compute_90) of the code that runs `kernel` on
// the current device, or 0 when the binary holds no code for it. Code for a
// version runs only on devices of at least that compute capability, so
// "ptx_version_of(k) >= 80" also says that the device has what 8.0 brings.
template <class... Parameters>
int ptx_version_of(void (*kernel)(Parameters...)) {
  cudaFuncAttributes attributes = {};
  if (cudaFuncGetAttributes(&attributes, kernel) != cudaSuccess) {
    cudaGetLastError();  // no code for this device: the caller's answer is "no"
    return 0;
  }
  return attributes.ptxVersion;
}

// Blocks of `threads` threads resident per multiprocessor (at least 1).
template <class... Parameters>
int resident_blocks_of(void (*kernel)(Parameters...), int threads, size_t shared_bytes = 0) {
  int blocks = 0;
  if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, threads, shared_bytes) !=
          cudaSuccess ||
      blocks < 1) {
    cudaGetLastError();
    return 1;
  }
  return blocks;
}

// Host and device: v4's epilogues ask it per store (a constant `bytes` folds
// to a mask test).
__host__ __device__ inline bool aligned_to(const void* pointer, uintptr_t bytes) {
  return reinterpret_cast<uintptr_t>(pointer) % bytes == 0;
}

}  // namespace cuda
}  // namespace cae_plugin
