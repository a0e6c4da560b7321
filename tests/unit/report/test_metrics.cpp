#include <doctest/doctest.h>

#include <cmath>
#include <stdexcept>
#include <string>

#include "report/metrics.hpp"

using cae::ConfusionMatrix;

TEST_CASE("confusion matrix counts known labels") {
  //                      sample: 0  1  2  3  4  5  6  7
  std::vector<int> true_labels = {0, 0, 0, 1, 1, 2, 2, 2};
  std::vector<int> predicted = {0, 0, 1, 1, 2, 2, 2, 0};
  auto matrix = ConfusionMatrix::from_labels(true_labels, predicted, 3);

  CHECK(matrix.num_classes() == 3);
  CHECK(matrix.total() == 8);
  CHECK(matrix.count(0, 0) == 2);
  CHECK(matrix.count(0, 1) == 1);
  CHECK(matrix.count(1, 1) == 1);
  CHECK(matrix.count(1, 2) == 1);
  CHECK(matrix.count(2, 2) == 2);
  CHECK(matrix.count(2, 0) == 1);
  CHECK(matrix.count(1, 0) == 0);
  CHECK(matrix.correct() == 5);
  CHECK(matrix.support(0) == 3);
  CHECK(matrix.support(1) == 2);

  CHECK(matrix.accuracy() == doctest::Approx(5.0 / 8.0));
  auto per_class = matrix.per_class_accuracy();
  REQUIRE(per_class.size() == 3);
  CHECK(per_class[0] == doctest::Approx(2.0 / 3.0));
  CHECK(per_class[1] == doctest::Approx(0.5));
  CHECK(per_class[2] == doctest::Approx(2.0 / 3.0));
  CHECK(matrix.row_fraction(2, 0) == doctest::Approx(1.0 / 3.0));

  CHECK(cae::accuracy(true_labels, predicted) == doctest::Approx(0.625));
  CHECK(cae::per_class_accuracy(true_labels, predicted, 3) == per_class);
}

TEST_CASE("ten classes: a perfect and a shifted classifier") {
  std::vector<int> labels;
  for (int i = 0; i < 1000; ++i) labels.push_back(i % 10);
  std::vector<int> shifted;
  for (int label : labels) shifted.push_back((label + 1) % 10);

  auto perfect = ConfusionMatrix::from_labels(labels, labels, 10);
  CHECK(perfect.accuracy() == 1.0);
  for (int c = 0; c < 10; ++c) CHECK(perfect.count(c, c) == 100);

  auto wrong = ConfusionMatrix::from_labels(labels, shifted, 10);
  CHECK(wrong.accuracy() == 0.0);
  CHECK(wrong.count(9, 0) == 100);
  CHECK(wrong.count(3, 4) == 100);
}

TEST_CASE("undefined ratios are NaN, not zero") {
  ConfusionMatrix empty(4);
  CHECK(std::isnan(empty.accuracy()));
  ConfusionMatrix matrix(3);
  matrix.add(0, 0);
  auto per_class = matrix.per_class_accuracy();
  CHECK(per_class[0] == 1.0);
  CHECK(std::isnan(per_class[1]));
  CHECK(std::isnan(matrix.row_fraction(2, 2)));
  CHECK(std::isnan(cae::accuracy({}, {})));
}

TEST_CASE("bad input is rejected with a message that says where") {
  CHECK_THROWS_AS(ConfusionMatrix(0), std::invalid_argument);
  CHECK_THROWS_WITH_AS(ConfusionMatrix::from_labels({0, 1}, {0}, 2),
                       doctest::Contains("2 true labels, 1 predicted"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(ConfusionMatrix::from_labels({0, 1, 2}, {0, 1, 10}, 10),
                       doctest::Contains("sample 2: predicted label 10 is outside [0, 10)"),
                       std::invalid_argument);
  ConfusionMatrix matrix(2);
  CHECK_THROWS_AS(matrix.add(-1, 0), std::invalid_argument);
  CHECK_THROWS_AS(matrix.count(0, 2), std::invalid_argument);
  CHECK(matrix.total() == 0);
}
