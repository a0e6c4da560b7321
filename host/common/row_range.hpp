// Rows [begin, end) of a set: the images a worker, a device or a rank of a
// group of processes takes of a split.
#pragma once

#include <cstddef>

namespace cae {

struct RowRange {
  size_t begin = 0;
  size_t end = 0;

  size_t size() const { return end - begin; }
};

}  // namespace cae
