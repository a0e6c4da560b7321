#include "report/metrics.hpp"

#include <limits>
#include <stdexcept>
#include <string>

namespace cae {
namespace {

constexpr double kUndefined = std::numeric_limits<double>::quiet_NaN();

double ratio(std::int64_t part, std::int64_t whole) {
  return whole > 0 ? static_cast<double>(part) / static_cast<double>(whole) : kUndefined;
}

void check_same_length(const std::vector<int>& true_labels,
                       const std::vector<int>& predicted_labels) {
  if (true_labels.size() != predicted_labels.size()) {
    throw std::invalid_argument("label counts differ: " + std::to_string(true_labels.size()) +
                                " true labels, " + std::to_string(predicted_labels.size()) +
                                " predicted labels");
  }
}

}  // namespace

ConfusionMatrix::ConfusionMatrix(int num_classes) : num_classes_(num_classes) {
  if (num_classes < 1) {
    throw std::invalid_argument("a confusion matrix needs at least one class, got " +
                                std::to_string(num_classes));
  }
  counts_.assign(static_cast<std::size_t>(num_classes) * num_classes, 0);
}

ConfusionMatrix ConfusionMatrix::from_labels(const std::vector<int>& true_labels,
                                             const std::vector<int>& predicted_labels,
                                             int num_classes) {
  check_same_length(true_labels, predicted_labels);
  ConfusionMatrix matrix(num_classes);
  for (std::size_t i = 0; i < true_labels.size(); ++i) {
    try {
      matrix.add(true_labels[i], predicted_labels[i]);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument("sample " + std::to_string(i) + ": " + e.what());
    }
  }
  return matrix;
}

void ConfusionMatrix::check_label(int label, const char* which) const {
  if (label < 0 || label >= num_classes_) {
    throw std::invalid_argument(std::string(which) + " label " + std::to_string(label) +
                                " is outside [0, " + std::to_string(num_classes_) + ")");
  }
}

std::size_t ConfusionMatrix::index(int true_label, int predicted_label) const {
  check_label(true_label, "true");
  check_label(predicted_label, "predicted");
  return static_cast<std::size_t>(true_label) * num_classes_ + predicted_label;
}

void ConfusionMatrix::add(int true_label, int predicted_label, std::int64_t times) {
  if (times < 0) throw std::invalid_argument("confusion matrix: negative count");
  const std::size_t cell = index(true_label, predicted_label);
  // Every sum of counts (a row's, the diagonal's) is at most the total, so
  // keeping the total in range keeps them all.
  if (times > std::numeric_limits<std::int64_t>::max() - total_) {
    throw std::overflow_error("confusion matrix: the counts sum past 2^63");
  }
  counts_[cell] += times;
  total_ += times;
}

std::int64_t ConfusionMatrix::count(int true_label, int predicted_label) const {
  return counts_[index(true_label, predicted_label)];
}

std::int64_t ConfusionMatrix::correct() const {
  std::int64_t sum = 0;
  for (int c = 0; c < num_classes_; ++c) sum += count(c, c);
  return sum;
}

std::int64_t ConfusionMatrix::support(int true_label) const {
  std::int64_t sum = 0;
  for (int p = 0; p < num_classes_; ++p) sum += count(true_label, p);
  return sum;
}

double ConfusionMatrix::accuracy() const { return ratio(correct(), total_); }

std::vector<double> ConfusionMatrix::per_class_accuracy() const {
  std::vector<double> result(static_cast<std::size_t>(num_classes_));
  for (int c = 0; c < num_classes_; ++c) result[c] = ratio(count(c, c), support(c));
  return result;
}

double ConfusionMatrix::row_fraction(int true_label, int predicted_label) const {
  return ratio(count(true_label, predicted_label), support(true_label));
}

double accuracy(const std::vector<int>& true_labels, const std::vector<int>& predicted_labels) {
  check_same_length(true_labels, predicted_labels);
  std::int64_t correct = 0;
  for (std::size_t i = 0; i < true_labels.size(); ++i) {
    if (true_labels[i] == predicted_labels[i]) ++correct;
  }
  return ratio(correct, static_cast<std::int64_t>(true_labels.size()));
}

std::vector<double> per_class_accuracy(const std::vector<int>& true_labels,
                                       const std::vector<int>& predicted_labels, int num_classes) {
  return ConfusionMatrix::from_labels(true_labels, predicted_labels, num_classes)
      .per_class_accuracy();
}

}  // namespace cae
