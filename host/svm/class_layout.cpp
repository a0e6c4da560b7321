#include "svm/class_layout.hpp"

#include <algorithm>

#include "svm/svm_error.hpp"

namespace cae::svm {

int64_t ClassLayout::largest_class_rows() const {
  size_t largest = 0;
  for (const std::vector<int64_t>& members : rows) largest = std::max(largest, members.size());
  return static_cast<int64_t>(largest);
}

ClassLayout ClassLayout::of(const FeatureSet& train) {
  train.check("SVM training set", true);
  return of(train, all_rows(train));
}

ClassLayout ClassLayout::of(const FeatureSet& train, const std::vector<int64_t>& rows) {
  train.check("SVM training set", true);
  ClassLayout layout;
  for (const int64_t i : rows) {
    if (i < 0 || i >= train.rows) {
      throw SvmError("SVM training set: row " + std::to_string(i) + " of " +
                     std::to_string(train.rows));
    }
    layout.labels.push_back(train.labels[static_cast<size_t>(i)]);
  }
  std::sort(layout.labels.begin(), layout.labels.end());
  layout.labels.erase(std::unique(layout.labels.begin(), layout.labels.end()), layout.labels.end());
  if (layout.labels.size() < 2) {
    throw SvmError("SVM training set: needs at least two classes, found " +
                   std::to_string(layout.labels.size()));
  }
  layout.rows.resize(layout.labels.size());
  for (const int64_t i : rows) {
    const auto at = std::lower_bound(layout.labels.begin(), layout.labels.end(),
                                     train.labels[static_cast<size_t>(i)]);
    layout.rows[static_cast<size_t>(at - layout.labels.begin())].push_back(i);
  }
  return layout;
}

std::vector<ClassPair> class_pairs(int32_t class_count) {
  std::vector<ClassPair> pairs;
  for (int32_t a = 0; a < class_count; ++a) {
    for (int32_t b = a + 1; b < class_count; ++b) pairs.push_back({a, b});
  }
  return pairs;
}

}  // namespace cae::svm
