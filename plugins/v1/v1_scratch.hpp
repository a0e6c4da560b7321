// A device buffer that grows on demand and is otherwise reused, so that the
// multi-pass reductions allocate only the first time a larger size appears.
#pragma once

#include <cstddef>

#include "cuda_support.hpp"

namespace v1 {

class ScratchBuffer {
 public:
  explicit ScratchBuffer(const char* what) : what_(what) {}
  ~ScratchBuffer() = default;  // release() must run first (the context does it)
  ScratchBuffer(const ScratchBuffer&) = delete;
  ScratchBuffer& operator=(const ScratchBuffer&) = delete;

  // At least `count` floats of device memory. Growing waits for `stream` first:
  // earlier kernels on it may still read the old buffer.
  float* get(size_t count, cudaStream_t stream, cae_plugin::cuda::MemoryTracker& tracker);

  void release(cae_plugin::cuda::MemoryTracker& tracker) noexcept;

 private:
  const char* what_;
  float* data_ = nullptr;
  size_t capacity_ = 0;
};

}  // namespace v1
