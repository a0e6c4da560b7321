// Transformed filters (U = G g G^T for every (o, c)), computed once per weight
// version: the forward and the data gradient of one training step, and every
// forward of an extraction, reuse them. Keyed by the tensor's id and version,
// so a weight rewritten in any way (upload, adam_step, sgd_step, any op that
// outputs into it, an all-reduce) is transformed again before its next use.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <unordered_map>

#include "winograd_device_buffer.hpp"
#include "winograd_tensor.hpp"

namespace cae_winograd {

class FilterCache {
 public:
  explicit FilterCache(cae_plugin::cuda::MemoryTracker& tracker) : tracker_(tracker) {}

  // The transform of `weights` (`floats` values), running `transform(dst)` to
  // (re)fill it when the cached one is missing or stale.
  float* get(const cae_tensor_s& weights, size_t floats,
             const std::function<void(float*)>& transform) {
    auto found = entries_.find(weights.id);
    if (found == entries_.end()) {
      Entry entry{0, false, std::make_unique<GrowingBuffer>(tracker_, "a filter transform")};
      found = entries_.emplace(weights.id, std::move(entry)).first;
    }
    Entry& entry = found->second;
    float* data = entry.buffer->reserve(floats);
    if (!entry.valid || entry.version != weights.version) {
      entry.valid = false;  // stays invalid if the transform throws
      transform(data);
      entry.version = weights.version;
      entry.valid = true;
    }
    return data;
  }

  // Called when the tensor is freed: its memory goes with it.
  void forget(const cae_tensor_s& weights) { entries_.erase(weights.id); }

 private:
  struct Entry {
    uint64_t version;
    bool valid;
    std::unique_ptr<GrowingBuffer> buffer;
  };
  cae_plugin::cuda::MemoryTracker& tracker_;
  std::unordered_map<uint64_t, Entry> entries_;
};

}  // namespace cae_winograd
