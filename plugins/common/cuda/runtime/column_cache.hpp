// im2col matrices kept from a convolution's forward pass for its backward
// pass (the "columns" scheme gathers the same x twice otherwise).
//
// One slot per convolution geometry (N, C, H, W, K): a layer's forward pass
// fills its slot and tags it with x's version; the backward pass of the same
// layer finds the tag still current and skips the gather. Two layers of the
// same geometry share a slot and simply refill it. Slots are dropped least
// recently used first beyond a byte budget (and beyond 8 slots).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "device_memory.hpp"

namespace cae_cuda {

class ColumnCache {
 public:
  using Geometry = std::array<int64_t, 5>;
  struct Slot {
    Geometry geometry{};
    DeviceMemory memory;
    uint64_t version = 0;  // of the x whose columns it holds; 0: none
    uint64_t last_use = 0;
  };

  ColumnCache(cae_plugin::cuda::MemoryTracker& tracker, size_t budget_bytes)
      : tracker_(tracker), budget_(budget_bytes) {}

  // The slot for this geometry with room for `floats`, or nullptr when the
  // cache is off or the matrix alone exceeds the budget.
  Slot* slot_for(const Geometry& geometry, size_t floats);

 private:
  static constexpr size_t kMaxSlots = 8;
  cae_plugin::cuda::MemoryTracker& tracker_;
  size_t budget_;
  uint64_t clock_ = 0;
  std::vector<std::unique_ptr<Slot>> slots_;
};

}  // namespace cae_cuda
