#pragma once
// `cae data check`: validates every record of a CIFAR-10 directory and sums it up.

#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "data/cifar_format.hpp"

namespace cae {

struct CifarSplitSummary {
  std::vector<std::string> files;
  size_t images = 0;
  std::array<size_t, cifar::kNumClasses> per_class{};
};

struct CifarSummary {
  std::string dir;  // the folder that holds the files
  std::vector<std::string> class_names;
  CifarSplitSummary train;
  CifarSplitSummary test;
};

// Reads every file completely (sizes, every label, class names). Throws
// DataError on the first problem.
CifarSummary check_cifar(const std::string& dir);

// A few lines for a person: where, how many images per split, a per-class table.
std::string describe(const CifarSummary& summary);

}  // namespace cae
