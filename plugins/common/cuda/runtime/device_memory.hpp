// Device memory owned by a context and accounted in its MemoryTracker, and a
// growable scratch area for the temporaries of one op at a time.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "cuda_support.hpp"

namespace cae_cuda {

// An owned device allocation (bytes rounded up to whole floats).
class DeviceMemory {
 public:
  DeviceMemory() = default;
  DeviceMemory(size_t bytes, cae_plugin::cuda::MemoryTracker& tracker, const char* what)
      : tracker_(&tracker), floats_((bytes + sizeof(float) - 1) / sizeof(float)) {
    data_ = cae_plugin::cuda::device_alloc_floats(floats_, tracker, what);
  }
  ~DeviceMemory() { reset(); }
  DeviceMemory(const DeviceMemory&) = delete;
  DeviceMemory& operator=(const DeviceMemory&) = delete;
  DeviceMemory(DeviceMemory&& other) noexcept { *this = static_cast<DeviceMemory&&>(other); }
  DeviceMemory& operator=(DeviceMemory&& other) noexcept {
    if (this != &other) {
      reset();
      tracker_ = other.tracker_;
      floats_ = other.floats_;
      data_ = other.data_;
      other.data_ = nullptr;
      other.floats_ = 0;
    }
    return *this;
  }

  void reset() noexcept {
    if (data_) cae_plugin::cuda::device_free(data_, floats_ * sizeof(float), *tracker_);
    data_ = nullptr;
    floats_ = 0;
  }
  template <class T = float>
  T* as() const {
    return reinterpret_cast<T*>(data_);
  }
  size_t bytes() const { return floats_ * sizeof(float); }

 private:
  cae_plugin::cuda::MemoryTracker* tracker_ = nullptr;
  size_t floats_ = 0;
  float* data_ = nullptr;
};

// Offsets of the temporaries one op needs inside a single scratch request.
// Each starts on a 256-byte boundary (cuBLASLt's preferred alignment, and
// float4 access everywhere).
class ScratchLayout {
 public:
  size_t add(int64_t floats) {
    const size_t at = total_;
    total_ += (static_cast<size_t>(floats) + 63) / 64 * 64;
    return at;
  }
  size_t total() const { return total_; }

 private:
  size_t total_ = 0;
};

// One growable device area. get() may reallocate, which invalidates earlier
// pointers: an op calls it ONCE and carves its temporaries from the result.
// Growth waits for the stream first, since queued kernels may still use the
// old area (it happens only when a larger shape appears).
//
// With `poison` (the option poison-scratch=true) it fills the area with NaN
// (all bits set) on every get(): any temporary read before an op's kernels
// wrote it then turns the op's output into NaN, which conformance reports. It
// tells a real uninitialised read from a sanitizer that cannot see some
// writes (initcheck counts the memset as a write, so run it without the
// sanitizer).
class Scratch {
 public:
  Scratch(cae_plugin::cuda::MemoryTracker& tracker, cudaStream_t stream, bool poison)
      : tracker_(tracker), stream_(stream), poison_(poison) {}
  float* get(size_t floats) {
    if (floats > capacity_ || !memory_.as()) {
      const size_t grown = (floats + kGranule - 1) / kGranule * kGranule + kGranule;
      CAE_CUDA_CHECK(cudaStreamSynchronize(stream_));
      memory_.reset();
      memory_ = DeviceMemory(grown * sizeof(float), tracker_, "the scratch area");
      capacity_ = grown;
    }
    if (poison_) CAE_CUDA_CHECK(cudaMemsetAsync(memory_.as(), 0xFF, floats * sizeof(float), stream_));
    return memory_.as();
  }
  // Trades areas with another Scratch of the same context (same tracker,
  // stream and poisoning): a captured graph keeps an area of its own that no
  // later op may grow or free under it (plugins/v4/v4_graph.cpp).
  void exchange(Scratch& other) noexcept {
    DeviceMemory mine = static_cast<DeviceMemory&&>(memory_);
    memory_ = static_cast<DeviceMemory&&>(other.memory_);
    other.memory_ = static_cast<DeviceMemory&&>(mine);
    const size_t capacity = capacity_;
    capacity_ = other.capacity_;
    other.capacity_ = capacity;
  }

 private:
  static constexpr size_t kGranule = size_t(1) << 20;  // floats (4 MiB)
  cae_plugin::cuda::MemoryTracker& tracker_;
  cudaStream_t stream_;
  DeviceMemory memory_;
  size_t capacity_ = 0;
  bool poison_ = false;
};

// A device buffer derived from a tensor (see runtime_tensor.hpp), grown on demand;
// *allocated (when given) tells whether this call made new, uninitialised storage.
struct DerivedBuffer;
void* derived_storage(DerivedBuffer& buffer, size_t bytes, cae_plugin::cuda::MemoryTracker& tracker,
                      const char* what, bool* allocated = nullptr);
void release_derived(DerivedBuffer& buffer, cae_plugin::cuda::MemoryTracker& tracker) noexcept;

}  // namespace cae_cuda
