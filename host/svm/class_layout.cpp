#include "svm/class_layout.hpp"

#include <algorithm>

#include "svm/svm_error.hpp"

namespace cae::svm {

ClassLayout ClassLayout::of(const FeatureSet& train) {
  train.check("SVM training set", true);
  ClassLayout layout;
  layout.labels = train.labels;
  std::sort(layout.labels.begin(), layout.labels.end());
  layout.labels.erase(std::unique(layout.labels.begin(), layout.labels.end()), layout.labels.end());
  if (layout.labels.size() < 2) {
    throw SvmError("SVM training set: needs at least two classes, found " +
                   std::to_string(layout.labels.size()));
  }
  layout.rows.resize(layout.labels.size());
  for (int64_t i = 0; i < train.rows; ++i) {
    const auto at = std::lower_bound(layout.labels.begin(), layout.labels.end(), train.labels[i]);
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
