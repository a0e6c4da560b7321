// Storage order of the naive backend's tensors (see naive_context.hpp) and the
// conversion to and from the boundary layout.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <vector>

#include "naive_context.hpp"

namespace naive {

// Where a tensor keeps the element whose boundary (row-major) index is i.
// A 4-D tensor [A,B,C,D] is stored as [A,C,D,B]: `channels` = B and
// `pixels` = C*D. channels == 1 means storage order equals boundary order,
// which also covers every tensor that is not 4-D (and 4-D ones with B == 1
// or C*D == 1, whose permutation changes nothing).
struct StorageOrder {
  int64_t channels = 1;
  int64_t pixels = 1;

  bool is_identity() const { return channels == 1; }
  bool operator==(const StorageOrder& other) const {
    return channels == other.channels && pixels == other.pixels;
  }
};

StorageOrder storage_order_of(const cae_plugin::Shape& shape);

// The orders an element-wise op over `tensors` (equal element counts; NULL
// entries allowed) must use. When all store their elements in the same order
// the op can simply walk storage, so all become identity; only tensors of
// different shapes (e.g. a 4-D pred with a 2-D target) need index mapping.
std::vector<StorageOrder> elementwise_orders(std::initializer_list<const cae_tensor_s*> tensors);

// Copy host <-> device, converting between the boundary layout and storage.
// Both return once the transfer is complete.
void upload_tensor(cae_context_s& ctx, cae_tensor_s& tensor, const float* src);
void download_tensor(cae_context_s& ctx, const cae_tensor_s& tensor, float* dst);

}  // namespace naive
