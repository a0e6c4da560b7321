// Classification metrics from true and predicted labels.
#pragma once

#include <cstdint>
#include <vector>

namespace cae {

// counts[t][p] = how many samples of true class t were predicted as p.
// Undefined ratios (a class without samples, an empty matrix) are NaN rather
// than 0, so a report shows "no data" instead of a misleading 0 %.
class ConfusionMatrix {
 public:
  // Throws std::invalid_argument if num_classes < 1.
  explicit ConfusionMatrix(int num_classes);

  // Throws std::invalid_argument if the label vectors differ in length or a
  // label lies outside [0, num_classes); the message names the first bad index.
  static ConfusionMatrix from_labels(const std::vector<int>& true_labels,
                                     const std::vector<int>& predicted_labels, int num_classes);

  // Counts `times` samples (default one). Throws std::invalid_argument for a
  // label outside [0, num_classes) or a negative `times`, std::overflow_error
  // when the total would pass 2^63 - 1.
  void add(int true_label, int predicted_label, std::int64_t times = 1);

  int num_classes() const { return num_classes_; }
  std::int64_t count(int true_label, int predicted_label) const;
  std::int64_t total() const { return total_; }
  std::int64_t correct() const;
  // Samples whose true class is `true_label` (a row sum).
  std::int64_t support(int true_label) const;

  // correct() / total().
  double accuracy() const;
  // Per true class: the share of its samples predicted correctly (recall).
  std::vector<double> per_class_accuracy() const;
  // count / support(true_label): the value a heat map colours by.
  double row_fraction(int true_label, int predicted_label) const;

 private:
  std::size_t index(int true_label, int predicted_label) const;
  void check_label(int label, const char* which) const;

  int num_classes_;
  std::int64_t total_ = 0;
  std::vector<std::int64_t> counts_;
};

// Shortcuts for the common one-number questions; same validation as above.
double accuracy(const std::vector<int>& true_labels, const std::vector<int>& predicted_labels);
std::vector<double> per_class_accuracy(const std::vector<int>& true_labels,
                                       const std::vector<int>& predicted_labels, int num_classes);

}  // namespace cae
