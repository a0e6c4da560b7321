#include "svm/features.hpp"

#include <doctest/doctest.h>

#include <cmath>

#include "svm/class_layout.hpp"
#include "svm/kernel_params.hpp"
#include "svm/svm_error.hpp"
#include "test_data.hpp"

using namespace cae::svm;

TEST_CASE("Standardizer: zero mean, unit deviation, constant dimensions left at scale 1") {
  FeatureSet set;
  set.rows = 4;
  set.dim = 2;
  set.values = {1, 5, 2, 5, 3, 5, 4, 5};  // dim 1 is constant
  set.labels = {0, 0, 1, 1};
  const Standardizer standardizer = Standardizer::fit(set, 3);
  CHECK(standardizer.mean()[0] == doctest::Approx(2.5));
  CHECK(standardizer.scale()[0] == doctest::Approx(std::sqrt(1.25)));
  CHECK(standardizer.mean()[1] == doctest::Approx(5.0));
  CHECK(standardizer.scale()[1] == 1.0f);

  std::vector<float> rows = set.values;
  standardizer.apply(rows.data(), set.rows);
  double sum = 0, squares = 0;
  for (int i = 0; i < 4; ++i) {
    sum += rows[2 * i];
    squares += rows[2 * i] * rows[2 * i];
    CHECK(rows[2 * i + 1] == 0.0f);
  }
  CHECK(sum == doctest::Approx(0.0).epsilon(1e-6));
  CHECK(squares / 4 == doctest::Approx(1.0));

  CHECK_THROWS_AS(Standardizer({0.0f}, {0.0f}), SvmError);
  CHECK_THROWS_AS(Standardizer({0.0f, 1.0f}, {1.0f}), SvmError);
}

TEST_CASE("FeatureSet::check names the set and the mismatch") {
  FeatureSet set;
  set.rows = 3;
  set.dim = 2;
  set.values.resize(5);
  CHECK_THROWS_WITH(set.check("my set", false), "my set: 5 values for 3 rows of dimension 2");
  set.values.resize(6);
  CHECK_NOTHROW(set.check("my set", false));
  CHECK_THROWS_WITH(set.check("my set", true), "my set: 0 labels for 3 rows");
}

TEST_CASE("gamma policies") {
  const FeatureSet set = test::clustered(3, 20, 8, 2.0, 1, 0);
  CHECK(GammaPolicy::parse("auto").mode == GammaPolicy::Mode::Auto);
  CHECK(resolve_gamma(GammaPolicy::parse("auto"), set, Standardizer()) == doctest::Approx(1.0 / 8));
  CHECK(resolve_gamma(GammaPolicy::parse("0.25"), set, Standardizer()) == 0.25);
  CHECK(GammaPolicy::parse("0.25").text() == "0.25");
  CHECK(GammaPolicy::parse("scale").text() == "scale");

  // "scale" on standardised data: every value has mean 0 and variance 1.
  const Standardizer standardizer = Standardizer::fit(set);
  CHECK(resolve_gamma(GammaPolicy::parse("scale"), set, standardizer, 2) ==
        doctest::Approx(1.0 / 8).epsilon(1e-4));

  // ... and on raw data, 1 / (dim * variance of all values).
  double sum = 0, squares = 0;
  for (float v : set.values) {
    sum += v;
    squares += double{v} * v;
  }
  const double n = static_cast<double>(set.values.size());
  const double variance = squares / n - (sum / n) * (sum / n);
  CHECK(resolve_gamma(GammaPolicy::parse("scale"), set, Standardizer()) ==
        doctest::Approx(1.0 / (8 * variance)));

  CHECK_THROWS_AS(GammaPolicy::parse("-1"), SvmError);
  CHECK_THROWS_AS(GammaPolicy::parse("fast"), SvmError);
  CHECK_THROWS_AS(GammaPolicy::parse(""), SvmError);
  CHECK(parse_kernel_kind("linear") == KernelKind::Linear);
  CHECK_THROWS_WITH(parse_kernel_kind("poly"), "unknown SVM kernel 'poly' (choose rbf or linear)");
}

TEST_CASE("ClassLayout: labels ascending, rows per class, pairs in libsvm order") {
  FeatureSet set;
  set.rows = 5;
  set.dim = 1;
  set.values = {0, 1, 2, 3, 4};
  set.labels = {7, 3, 7, 5, 3};
  const ClassLayout layout = ClassLayout::of(set);
  CHECK(layout.labels == std::vector<int32_t>{3, 5, 7});
  CHECK(layout.rows[0] == std::vector<int64_t>{1, 4});
  CHECK(layout.rows[1] == std::vector<int64_t>{3});
  CHECK(layout.rows[2] == std::vector<int64_t>{0, 2});
  const auto pairs = class_pairs(3);
  REQUIRE(pairs.size() == 3);
  CHECK((pairs[0].first == 0 && pairs[0].second == 1));
  CHECK((pairs[1].first == 0 && pairs[1].second == 2));
  CHECK((pairs[2].first == 1 && pairs[2].second == 2));

  set.labels = {1, 1, 1, 1, 1};
  CHECK_THROWS_AS(ClassLayout::of(set), SvmError);
}
