#pragma once
// A whole image set's pixels as the network's input values (fill_batch's
// [0, 1] floats), for tests that transform every image at once, and the
// images through a transform and back.

#include <vector>

#include "data/batcher.hpp"
#include "data/image_set.hpp"
#include "data/input_transform.hpp"

namespace cae {

inline std::vector<float> all_images(const ImageSet& set) {
  std::vector<size_t> indices(set.size());
  for (size_t i = 0; i < indices.size(); ++i) indices[i] = i;
  std::vector<float> values(set.size() * set.image_bytes());
  fill_batch(set, indices, values.data());
  return values;
}

// The set's images as they went in, and after `transform` and its inverse.
struct RoundTrip {
  std::vector<float> original;
  std::vector<float> restored;
  bool changed = false;  // whether the transform changed them on the way
};

inline RoundTrip through_and_back(const InputTransform& transform, const ImageSet& set) {
  RoundTrip trip;
  trip.original = all_images(set);
  trip.restored = trip.original;
  std::vector<ImageScale> scales;
  transform.apply(trip.restored.data(), set.size(), &scales);
  trip.changed = trip.restored != trip.original;
  transform.restore(trip.restored.data(), set.size(), scales);
  return trip;
}

}  // namespace cae
