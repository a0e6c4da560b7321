// Device memory owned by a context and accounted in its MemoryTracker.
#pragma once

#include <cstddef>

#include "cuda_support.hpp"

namespace cae_winograd {

// A buffer that only grows: reserve(n) keeps the memory when it already holds
// n floats, else frees it and allocates n (cudaFree waits for the kernels that
// may still read it). Used for the per-context workspace and cache entries.
class GrowingBuffer {
 public:
  GrowingBuffer(cae_plugin::cuda::MemoryTracker& tracker, const char* what)
      : tracker_(tracker), what_(what) {}
  ~GrowingBuffer() { release(); }
  GrowingBuffer(const GrowingBuffer&) = delete;
  GrowingBuffer& operator=(const GrowingBuffer&) = delete;

  float* reserve(size_t floats) {
    if (floats > capacity_) {
      release();
      data_ = cae_plugin::cuda::device_alloc_floats(floats, tracker_, what_);
      capacity_ = floats;
    }
    return data_;
  }
  float* data() const { return data_; }
  size_t capacity() const { return capacity_; }

 private:
  void release() noexcept {
    if (data_) cae_plugin::cuda::device_free(data_, capacity_ * sizeof(float), tracker_);
    data_ = nullptr;
    capacity_ = 0;
  }

  cae_plugin::cuda::MemoryTracker& tracker_;
  const char* what_;
  float* data_ = nullptr;
  size_t capacity_ = 0;
};

}  // namespace cae_winograd
