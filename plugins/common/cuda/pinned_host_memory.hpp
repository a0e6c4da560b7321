// The page-locked host memory one context handed out (ABI 1.3 host_alloc):
// allocation, release, and the question a transfer asks, "does this host
// range lie inside one of my blocks?" (a copy from such memory needs no
// staging: the copy engine reads it directly).
//
// Plugins only.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <map>

namespace cae_plugin {
namespace cuda {

class PinnedHostMemory {
 public:
  PinnedHostMemory() = default;
  ~PinnedHostMemory();  // frees every block still held
  PinnedHostMemory(const PinnedHostMemory&) = delete;
  PinnedHostMemory& operator=(const PinnedHostMemory&) = delete;

  // cudaHostAlloc (portable: usable with every device); throws
  // CAE_STATUS_INVALID_ARGUMENT for 0 bytes, OUT_OF_MEMORY naming the size.
  void* allocate(size_t bytes);
  // Frees a block allocate() returned; anything else (NULL included) is ignored.
  void release(void* ptr) noexcept;
  // True when [ptr, ptr + bytes) lies inside one block.
  bool holds(const void* ptr, size_t bytes) const;
  size_t bytes_held() const { return bytes_held_; }

 private:
  std::map<uintptr_t, size_t> blocks_;  // start -> size
  size_t bytes_held_ = 0;
};

// tensor_upload / tensor_download from and to page-locked memory: one DMA on
// `stream`, then a wait for it (the contracts: src is free, dst filled, on
// return). Both wait for the work queued before them, which a download must
// anyway and an upload after a download (feature extraction) finds done.
void upload_from_pinned(cudaStream_t stream, float* device_dst, const float* host_src,
                        size_t count);
void download_to_pinned(cudaStream_t stream, float* host_dst, const float* device_src,
                        size_t count);

// tensor_upload's copy: from this context's page-locked blocks straight to
// the copy engine, from any other memory through `staged(dst, src, count)`,
// the backend's own staging.
template <class Staged>
void upload_host_floats(const PinnedHostMemory& blocks, cudaStream_t stream, float* device_dst,
                        const float* host_src, size_t count, Staged&& staged) {
  if (blocks.holds(host_src, count * sizeof(float))) {
    upload_from_pinned(stream, device_dst, host_src, count);
  } else {
    staged(device_dst, host_src, count);
  }
}

}  // namespace cuda
}  // namespace cae_plugin
