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
#include <utility>
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

  static constexpr size_t kMaxSlots = 8;

  // max_slots: a context keeps kMaxSlots; a captured graph's own cache
  // (plugins/v4/v4_graph.cpp) more, so that no geometry of its run evicts
  // another (an eviction frees memory, which a capture may not do).
  ColumnCache(cae_plugin::cuda::MemoryTracker& tracker, size_t budget_bytes,
              size_t max_slots = kMaxSlots)
      : tracker_(tracker), budget_(budget_bytes), max_slots_(max_slots) {}

  // The slot for this geometry with room for `floats`, or nullptr when the
  // cache is off or the matrix alone exceeds the budget.
  Slot* slot_for(const Geometry& geometry, size_t floats);

  // The slot for this geometry with room for `floats` if there is one, else
  // nullptr: a look-up that never allocates or evicts (for a reader that
  // uses a slot only when some writer filled it).
  Slot* find(const Geometry& geometry, size_t floats);

  // Trades slots, budget and slot limit with another cache of the same
  // context (same tracker): the context's ops then use the other cache's
  // slots, under its limits, until it is traded back. A captured graph's
  // walk must run under the graph's slot limit: under the context's eight, a
  // walk of more geometries (the wide preset's) evicted slots it needed
  // again later in the same walk, and the recorded walk then allocated,
  // which a capture may not.
  void exchange(ColumnCache& other) noexcept {
    slots_.swap(other.slots_);
    std::swap(clock_, other.clock_);
    std::swap(budget_, other.budget_);
    std::swap(max_slots_, other.max_slots_);
  }

 private:
  cae_plugin::cuda::MemoryTracker& tracker_;
  size_t budget_;
  size_t max_slots_;
  uint64_t clock_ = 0;
  std::vector<std::unique_ptr<Slot>> slots_;
};

}  // namespace cae_cuda
