// Which training rows belong to which class, and the one-vs-one pairs.
#pragma once

#include <cstdint>
#include <vector>

#include "svm/features.hpp"

namespace cae::svm {

// Classes are the distinct labels in ascending order; a class's index is its
// position there (so "the lowest class index" means "the smallest label").
struct ClassLayout {
  std::vector<int32_t> labels;             // distinct labels, ascending
  std::vector<std::vector<int64_t>> rows;  // rows[c]: training rows of class c, ascending

  // Throws SvmError when `train` has fewer than two classes.
  static ClassLayout of(const FeatureSet& train);
  // Of the rows `rows` of `train` only (ascending): rows[c] holds indices into `train`.
  static ClassLayout of(const FeatureSet& train, const std::vector<int64_t>& rows);
  int32_t class_count() const { return static_cast<int32_t>(labels.size()); }
  // Rows of the largest class.
  int64_t largest_class_rows() const;
};

struct ClassPair {
  int32_t first = 0;  // class index, first < second
  int32_t second = 0;
};

// (0,1), (0,2), ..., (0,k-1), (1,2), ..., (k-2,k-1): libsvm's pair order.
std::vector<ClassPair> class_pairs(int32_t class_count);

}  // namespace cae::svm
