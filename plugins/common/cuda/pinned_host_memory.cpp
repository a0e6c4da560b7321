#include "pinned_host_memory.hpp"

#include <cuda_runtime.h>

#include <iterator>
#include <string>

#include "cuda_support.hpp"
#include "plugin_support.hpp"

namespace cae_plugin {
namespace cuda {

PinnedHostMemory::~PinnedHostMemory() {
  for (const auto& block : blocks_) cudaFreeHost(reinterpret_cast<void*>(block.first));
}

void* PinnedHostMemory::allocate(size_t bytes) {
  require(bytes > 0, "host_alloc: bytes is 0");
  void* ptr = nullptr;
  // Portable: the host may pass the memory to a context on another device.
  const cudaError_t err = cudaHostAlloc(&ptr, bytes, cudaHostAllocPortable);
  if (err != cudaSuccess || !ptr) {
    (void)cudaGetLastError();
    fail(err == cudaErrorMemoryAllocation ? CAE_STATUS_OUT_OF_MEMORY : CAE_STATUS_DEVICE_ERROR,
         "host_alloc: cudaHostAlloc of " + format_bytes(bytes) +
             " (page-locked host memory) failed: " + cudaGetErrorString(err));
  }
  blocks_.emplace(reinterpret_cast<uintptr_t>(ptr), bytes);
  bytes_held_ += bytes;
  return ptr;
}

void PinnedHostMemory::release(void* ptr) noexcept {
  auto block = blocks_.find(reinterpret_cast<uintptr_t>(ptr));
  if (block == blocks_.end()) return;
  cudaFreeHost(ptr);
  bytes_held_ -= block->second;
  blocks_.erase(block);
}

bool PinnedHostMemory::holds(const void* ptr, size_t bytes) const {
  const uintptr_t start = reinterpret_cast<uintptr_t>(ptr);
  auto after = blocks_.upper_bound(start);
  if (after == blocks_.begin()) return false;
  const auto& block = *std::prev(after);
  return start - block.first <= block.second && bytes <= block.second - (start - block.first);
}

void upload_from_pinned(cudaStream_t stream, float* device_dst, const float* host_src,
                        size_t count) {
  CAE_CUDA_CHECK(
      cudaMemcpyAsync(device_dst, host_src, count * sizeof(float), cudaMemcpyHostToDevice, stream));
  CAE_CUDA_CHECK(cudaStreamSynchronize(stream));
}

void download_to_pinned(cudaStream_t stream, float* host_dst, const float* device_src,
                        size_t count) {
  CAE_CUDA_CHECK(
      cudaMemcpyAsync(host_dst, device_src, count * sizeof(float), cudaMemcpyDeviceToHost, stream));
  CAE_CUDA_CHECK(cudaStreamSynchronize(stream));
}

}  // namespace cuda
}  // namespace cae_plugin
