#include "column_cache.hpp"

#include <algorithm>

namespace cae_cuda {

ColumnCache::Slot* ColumnCache::find(const Geometry& geometry, size_t floats) {
  const size_t bytes = floats * sizeof(float);
  for (auto& slot : slots_) {
    if (slot->geometry == geometry && slot->memory.bytes() >= bytes) {
      slot->last_use = ++clock_;
      return slot.get();
    }
  }
  return nullptr;
}

ColumnCache::Slot* ColumnCache::slot_for(const Geometry& geometry, size_t floats) {
  const size_t bytes = floats * sizeof(float);
  if (bytes > budget_) return nullptr;
  if (Slot* found = find(geometry, floats)) return found;
  ++clock_;
  auto used = [&] {
    size_t total = 0;
    for (const auto& slot : slots_) total += slot->memory.bytes();
    return total;
  };
  // Drop the least recently used slots (and any stale one of this geometry).
  slots_.erase(
      std::remove_if(slots_.begin(), slots_.end(),
                     [&](const std::unique_ptr<Slot>& s) { return s->geometry == geometry; }),
      slots_.end());
  while (!slots_.empty() && (used() + bytes > budget_ || slots_.size() >= max_slots_)) {
    auto oldest =
        std::min_element(slots_.begin(), slots_.end(),
                         [](const std::unique_ptr<Slot>& a, const std::unique_ptr<Slot>& b) {
                           return a->last_use < b->last_use;
                         });
    slots_.erase(oldest);  // cudaFree waits for kernels still reading it
  }
  auto slot = std::make_unique<Slot>();
  slot->geometry = geometry;
  try {
    slot->memory = DeviceMemory(bytes, tracker_, "cached im2col columns");
  } catch (const cae_plugin::Error& e) {
    if (e.status() != CAE_STATUS_OUT_OF_MEMORY) throw;
    return nullptr;  // no room to keep them: the op uses its scratch instead
  }
  slot->last_use = clock_;
  slots_.push_back(std::move(slot));
  return slots_.back().get();
}

}  // namespace cae_cuda
