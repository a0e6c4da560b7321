#pragma once
// Loading CIFAR-10 (or a synthetic set in the same format) into memory.

#include <cstddef>
#include <string>
#include <vector>

#include "data/image_set.hpp"

namespace cae {

struct CifarData {
  ImageSet train;
  ImageSet test;
  std::vector<std::string> class_names;  // 10 names, index = label
};

// Reads DIR or DIR/cifar-10-batches-bin: train = every data_batch_<n>.bin in
// numeric order, test = test_batch.bin. max_train / max_test keep only the
// first images of each split (0 = all). Throws DataError naming the file and
// the problem (missing file, size not a multiple of 3073, label >= 10, ...).
CifarData load_cifar(const std::string& dir, size_t max_train = 0, size_t max_test = 0);

}  // namespace cae
