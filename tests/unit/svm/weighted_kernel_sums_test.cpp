// The backend's weighted kernel sums against the same sums on the host, in
// double, over tiles that do not divide the rows.
#include "svm/weighted_kernel_sums.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <memory>
#include <random>

#include "svm/svm_error.hpp"
#include "test_data.hpp"

namespace cae::svm {
namespace {

DeviceRows device_rows(Context& context, const std::vector<float>& values, int64_t count,
                       int64_t dim, int64_t tile_rows) {
  return DeviceRows(context, count, dim, tile_rows, [&](int64_t first, int64_t n, float* out) {
    std::copy(values.begin() + first * dim, values.begin() + (first + n) * dim, out);
  });
}

double rbf(const float* a, const float* b, int64_t dim, double gamma) {
  double distance = 0.0;
  for (int64_t k = 0; k < dim; ++k) distance += (double(a[k]) - b[k]) * (double(a[k]) - b[k]);
  return std::exp(-gamma * distance);
}

}  // namespace

TEST_CASE("weighted kernel sums on the backend equal the host's, tiles of any size") {
  Context& context = test::cpu_context();
  for (const uint64_t seed : {1u, 2u, 3u}) {
    CAPTURE(seed);
    std::mt19937_64 random(seed);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    const int64_t dim = 13, rows = 97, queries = 41, weight_rows = 5;
    const double gamma = 0.05;
    std::vector<float> x(size_t(rows * dim)), q(size_t(queries * dim)),
        w(size_t(weight_rows * rows));
    for (float& v : x) v = normal(random);
    for (float& v : q) v = normal(random);
    for (float& v : w) v = normal(random);
    const DeviceRows row_tiles = device_rows(context, x, rows, dim, 30);    // 30 30 30 7
    const DeviceRows query_tiles = device_rows(context, q, queries, dim, 16);  // 16 16 9
    WeightedKernelSums sums(context, row_tiles, w.data(), weight_rows,
                            {KernelKind::Rbf, static_cast<float>(gamma)});
    std::vector<double> got(size_t(weight_rows * queries), 1.0);  // added to, not overwritten
    sums.add_to(query_tiles, got.data());
    for (int64_t r = 0; r < weight_rows; ++r) {
      for (int64_t i = 0; i < queries; ++i) {
        double expected = 1.0;
        for (int64_t j = 0; j < rows; ++j) {
          expected += w[size_t(r * rows + j)] * rbf(&q[size_t(i * dim)], &x[size_t(j * dim)], dim, gamma);
        }
        CHECK(got[size_t(r * queries + i)] == doctest::Approx(expected).epsilon(1e-5));
      }
    }
  }
}

TEST_CASE("several gammas' sums from one product each equal their own sums, bit for bit") {
  Context& context = test::cpu_context();
  REQUIRE(context.has_kernel_rbf_from_linear());
  std::mt19937_64 random(7);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  const int64_t dim = 11, rows = 61, queries = 29, weight_rows = 3;
  std::vector<float> x(size_t(rows * dim)), q(size_t(queries * dim));
  for (float& v : x) v = normal(random);
  for (float& v : q) v = normal(random);
  const DeviceRows row_tiles = device_rows(context, x, rows, dim, 25);      // 25 25 11
  const DeviceRows query_tiles = device_rows(context, q, queries, dim, 12);  // 12 12 5
  const std::vector<float> gammas = {0.01f, 0.04f, 0.16f};
  std::vector<std::vector<float>> weights;
  std::vector<std::unique_ptr<WeightedKernelSums>> together, apart;
  std::vector<WeightedKernelSums*> each;
  std::vector<std::vector<double>> got(gammas.size()), want(gammas.size());
  std::vector<double*> outputs;
  for (size_t g = 0; g < gammas.size(); ++g) {
    weights.emplace_back(size_t(weight_rows * rows));
    for (float& v : weights.back()) v = normal(random);
    const KernelSpec spec{KernelKind::Rbf, gammas[g]};
    together.push_back(
        std::make_unique<WeightedKernelSums>(context, row_tiles, weights[g].data(), weight_rows, spec));
    apart.push_back(
        std::make_unique<WeightedKernelSums>(context, row_tiles, weights[g].data(), weight_rows, spec));
    each.push_back(together.back().get());
    got[g].assign(size_t(weight_rows * queries), 0.5);
    want[g].assign(size_t(weight_rows * queries), 0.5);
    outputs.push_back(got[g].data());
    apart.back()->add_to(query_tiles, want[g].data());
  }
  WeightedKernelSums::add_to_each(each, query_tiles, outputs);
  for (size_t g = 0; g < gammas.size(); ++g) {
    CAPTURE(g);
    CHECK(got[g] == want[g]);
    CHECK(got[g] != want[(g + 1) % gammas.size()]);  // each gamma its own sums
  }
}

TEST_CASE("weighted kernel sums refuse rows of another dimension and no weights") {
  Context& context = test::cpu_context();
  const std::vector<float> x(12, 1.0f);
  const DeviceRows four = device_rows(context, x, 4, 3, 4);
  const DeviceRows three = device_rows(context, x, 3, 4, 4);
  const std::vector<float> w(4, 1.0f);
  CHECK_THROWS_AS(WeightedKernelSums(context, four, w.data(), 0, {KernelKind::Linear, 0.0f}),
                  SvmError);
  WeightedKernelSums sums(context, four, w.data(), 1, {KernelKind::Linear, 0.0f});
  std::vector<double> out(3, 0.0);
  CHECK_THROWS_AS(sums.add_to(three, out.data()), SvmError);
}

}  // namespace cae::svm
