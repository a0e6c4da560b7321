// Device scratch memory of one context: im2col columns, transposed weights,
// staging for layout conversions. Allocated once and grown only when a larger
// request arrives, so a steady-state training step never calls cudaMalloc.
#pragma once

#include <cstddef>

#include "cuda_support.hpp"

namespace cae_v2 {

// Offsets of the scratch arrays one op needs. Each array starts on a 256-byte
// boundary so float4 accesses stay aligned.
class ScratchPlan {
 public:
  // Adds an array of `floats` elements and returns its offset in floats.
  size_t take(size_t floats) {
    const size_t offset = total_;
    total_ += (floats + kAlignFloats - 1) / kAlignFloats * kAlignFloats;
    return offset;
  }
  size_t total_floats() const { return total_; }

 private:
  static constexpr size_t kAlignFloats = 64;
  size_t total_ = 0;
};

class Workspace {
 public:
  Workspace(cae_plugin::cuda::MemoryTracker& tracker, cudaStream_t stream)
      : tracker_(tracker), stream_(stream) {}
  ~Workspace();
  Workspace(const Workspace&) = delete;
  Workspace& operator=(const Workspace&) = delete;

  // Returns at least `floats` floats. The pointer is valid until the next
  // reserve() (which may reallocate), so an op reserves ONCE, for all the
  // scratch arrays of its ScratchPlan, and carves them from the result.
  float* reserve(size_t floats);

 private:
  void release() noexcept;

  cae_plugin::cuda::MemoryTracker& tracker_;
  cudaStream_t stream_;
  float* data_ = nullptr;
  size_t capacity_floats_ = 0;
};

}  // namespace cae_v2
