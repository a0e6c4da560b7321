// The largest difference between two float vectors of the same size,
// relative to the largest magnitude of the first (the reference): how the nn
// suite compares results that may differ by rounding only.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace cae::test {

inline double max_relative_difference(const std::vector<float>& reference,
                                      const std::vector<float>& other) {
  REQUIRE(reference.size() == other.size());
  double worst = 0, scale = 0;
  for (size_t i = 0; i < reference.size(); ++i) {
    worst = std::max(worst, double(std::fabs(reference[i] - other[i])));
    scale = std::max(scale, double(std::fabs(reference[i])));
  }
  REQUIRE(scale > 0);
  return worst / scale;
}

}  // namespace cae::test
