// The validation split (seeded, disjoint, every class on both sides) and the
// (C, gamma) search that chooses hyper-parameters on it.
#include "svm/validation.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <set>

#include "svm/ovo_trainer.hpp"
#include "svm/svm_error.hpp"
#include "test_data.hpp"

namespace cae::svm {
namespace {

// Rows as (label, first value) pairs, to compare sets of rows.
std::multiset<std::pair<int32_t, float>> row_keys(const FeatureSet& set) {
  std::multiset<std::pair<int32_t, float>> keys;
  for (int64_t i = 0; i < set.rows; ++i) keys.insert({set.labels[i], set.row(i)[0]});
  return keys;
}

TEST_CASE("the validation split is seeded, disjoint and complete") {
  const FeatureSet train = test::clustered(4, 50, 6, 3.0, 1, 2);
  const ValidationSplit a = split_for_validation(train, 40, 7);
  const ValidationSplit b = split_for_validation(train, 40, 7);
  const ValidationSplit c = split_for_validation(train, 40, 8);
  CHECK(a.validation.rows == 40);
  CHECK(a.fit_rows.size() == 160);
  CHECK(std::is_sorted(a.fit_rows.begin(), a.fit_rows.end()));
  CHECK(a.validation.values == b.validation.values);  // same seed, same split
  CHECK(a.validation.values != c.validation.values);  // another seed, another split
  std::multiset<std::pair<int32_t, float>> all;
  for (const int64_t row : a.fit_rows) all.insert({train.labels[row], train.row(row)[0]});
  const auto held = row_keys(a.validation);
  all.insert(held.begin(), held.end());
  CHECK(all == row_keys(train));
}

TEST_CASE("a split that is empty, everything, or takes a whole class is refused") {
  const FeatureSet train = test::clustered(3, 10, 4, 3.0, 1, 2);
  CHECK_THROWS_AS(split_for_validation(train, 0, 1), SvmError);
  CHECK_THROWS_AS(split_for_validation(train, 30, 1), SvmError);
  CHECK_THROWS_AS(split_for_validation(train, 29, 1), SvmError);  // leaves one class out
}

TEST_CASE("the search scores every candidate on the validation rows and keeps the best") {
  const FeatureSet train = test::clustered(3, 60, 8, 2.0, 3, 4);
  const ValidationSplit split = split_for_validation(train, 60, 11);
  TrainOptions base;
  base.threads = 1;
  const std::vector<double> Cs = {1e-4, 1.0};
  const std::vector<GammaPolicy> gammas = {GammaPolicy::parse("scale"), GammaPolicy::parse("auto")};
  size_t calls = 0;
  const std::vector<SearchResult> results =
      search_hyper_parameters({&test::cpu_context()}, train, split, base, Cs, gammas,
                              [&](size_t done, size_t total, const SearchResult&) {
                                CHECK(done == ++calls);
                                CHECK(total == 4);
                              })
          .results;
  REQUIRE(results.size() == 4);
  for (const SearchResult& r : results) {
    CHECK(r.validation_accuracy >= 0.0);
    CHECK(r.validation_accuracy <= 1.0);
    CHECK(r.gamma_value > 0.0f);
  }
  // C = 1e-4 barely fits anything; C = 1 separates the clusters.
  const SearchResult& best = best_of(results);
  CHECK(best.candidate.C == 1.0);
  CHECK(best.validation_accuracy > 0.9);
  CHECK(best.validation_accuracy >= results[0].validation_accuracy);
}

TEST_CASE("training on the split's row indices gives the model of a copy of those rows") {
  const FeatureSet train = test::clustered(3, 40, 6, 1.0, 5, 6);
  const ValidationSplit split = split_for_validation(train, 30, 3);
  FeatureSet copy;
  copy.dim = train.dim;
  for (const int64_t row : split.fit_rows) {
    copy.values.insert(copy.values.end(), train.row(row), train.row(row) + train.dim);
    copy.labels.push_back(train.labels[static_cast<size_t>(row)]);
    ++copy.rows;
  }
  TrainOptions options;
  options.threads = 2;
  const OvoModel by_index = train_ovo({&test::cpu_context()}, train, split.fit_rows, options);
  const OvoModel copied = train_ovo(test::cpu_context(), copy, options);
  CHECK(by_index.standardizer.mean() == copied.standardizer.mean());
  CHECK(by_index.standardizer.scale() == copied.standardizer.scale());
  CHECK(by_index.gamma == copied.gamma);
  CHECK(by_index.sv_rows == copied.sv_rows);
  REQUIRE(by_index.sv_source.size() == copied.sv_source.size());
  for (size_t k = 0; k < copied.sv_source.size(); ++k) {
    // The same rows, numbered in the whole training set instead of the copy.
    CHECK(by_index.sv_source[k] == split.fit_rows[static_cast<size_t>(copied.sv_source[k])]);
  }
  REQUIRE(by_index.pairs.size() == copied.pairs.size());
  for (size_t p = 0; p < copied.pairs.size(); ++p) {
    CHECK(by_index.pairs[p].coef == copied.pairs[p].coef);
    CHECK(by_index.pairs[p].rho == copied.pairs[p].rho);
  }
}

TEST_CASE("ties go to the smaller C") {
  std::vector<SearchResult> results(2);
  results[0].candidate.C = 10.0;
  results[0].validation_accuracy = 0.5;
  results[1].candidate.C = 2.0;
  results[1].validation_accuracy = 0.5;
  CHECK(best_of(results).candidate.C == 2.0);
  CHECK_THROWS_AS(best_of({}), SvmError);
}

}  // namespace
}  // namespace cae::svm
