#pragma once
// A train/test split for sources without one of their own (a folder of class
// subfolders, a single .npy array): per class, a seeded shuffle sends
// round(fraction * n) of its images to the test split, so both splits keep the
// class balance and the same (labels, fraction, seed) always split alike.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace cae {

struct SplitIndices {
  std::vector<size_t> train;  // ascending
  std::vector<size_t> test;   // ascending
};

// fraction must be in (0, 1) and leave both splits non-empty; otherwise a
// DataError names `what` (the data set) and the counts.
SplitIndices split_by_fraction(const std::vector<uint8_t>& labels, double fraction, uint64_t seed,
                               const std::string& what);

}  // namespace cae
