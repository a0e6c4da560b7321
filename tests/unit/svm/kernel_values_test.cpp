// unorm16 kernel values (svm/kernel_values.hpp): the rounding and its bound,
// what is refused, the in-place and the parallel conversions across their
// chunks, the blocks and workspaces that hold them, and SMO on an RBF kernel
// stored as unorm16 against the same kernel in float32.
#include "svm/kernel_values.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "svm/diagonal_blocks.hpp"
#include "svm/pair_kernel.hpp"
#include "svm/pair_workspace.hpp"
#include "svm/smo_solver.hpp"
#include "svm/svm_error.hpp"
#include "test_data.hpp"

using namespace cae::svm;

TEST_CASE("kernel values: names parse and print, an unknown one lists the choices") {
  for (const KernelValues v : {KernelValues::Auto, KernelValues::Float32, KernelValues::Unorm16}) {
    CHECK(parse_kernel_values(kernel_values_name(v)) == v);
  }
  CHECK_THROWS_WITH_AS(parse_kernel_values("fp16"),
                       doctest::Contains("choose auto, float32 or unorm16"), SvmError);
}

TEST_CASE("unorm16 holds every value of [0, 1] within half a step") {
  CHECK(to_unorm16(0.0f) == 0);
  CHECK(to_unorm16(1.0f) == 65535);
  CHECK(kernel_value(to_unorm16(1.0f)) == doctest::Approx(1.0).epsilon(1e-15));
  std::mt19937_64 random(11);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  double worst = 0.0;
  for (int k = 0; k < 200000; ++k) {
    const float v = unit(random);
    worst = std::max(worst, std::fabs(kernel_value(to_unorm16(v)) - static_cast<double>(v)));
  }
  // Half a step (the step itself, 1 / 65535, is a double's rounding).
  CHECK(worst <= 0.5 * kUnorm16Step * (1.0 + 1e-12));
  CHECK(worst >= 0.4 * kUnorm16Step);  // the bound is met, not beaten by accident
}

TEST_CASE("unorm16 clamps a rounding outside [0, 1] and refuses anything else") {
  CHECK(to_unorm16(-1e-6f) == 0);
  CHECK(to_unorm16(1.0f + 1e-6f) == 65535);
  CHECK_THROWS_WITH_AS(to_unorm16(std::numeric_limits<float>::quiet_NaN()),
                       doctest::Contains("does not fit unorm16"), SvmError);
  CHECK_THROWS_AS(to_unorm16(std::numeric_limits<float>::infinity()), SvmError);
  CHECK_THROWS_AS(to_unorm16(1.5f), SvmError);
  CHECK_THROWS_AS(to_unorm16(-0.01f), SvmError);
}

TEST_CASE("the in-place rewrite equals value-by-value rounding at every chunk boundary") {
  std::mt19937_64 random(5);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  for (const size_t count : {size_t{0}, size_t{1}, size_t{2047}, size_t{2048}, size_t{2049},
                             size_t{4096}, size_t{10001}}) {
    CAPTURE(count);
    std::vector<float> values(count + 1);
    for (float& v : values) v = unit(random);
    const float guard = values[count];  // the float after the range stays untouched
    std::vector<uint16_t> expected;
    for (size_t k = 0; k < count; ++k) expected.push_back(to_unorm16(values[k]));
    const uint16_t* got = convert_to_unorm16(values.data(), count);
    CHECK(static_cast<const void*>(got) == static_cast<const void*>(values.data()));
    bool same = true;
    for (size_t k = 0; k < count; ++k) same = same && got[k] == expected[k];
    CHECK(same);
    CHECK(values[count] == guard);
  }
  std::vector<float> bad(5000, 0.5f);
  bad[4321] = 2.0f;
  CHECK_THROWS_WITH_AS(convert_to_unorm16(bad.data(), bad.size()),
                       doctest::Contains("(entry 4321)"), SvmError);
}

TEST_CASE("SMO on a unorm16 RBF kernel finds the float32 kernel's model within the rounding") {
  for (const uint64_t seed : {1u, 2u, 3u, 4u}) {
    CAPTURE(seed);
    const FeatureSet set = test::clustered(2, 150, 8, 0.7, seed, 1);
    std::vector<int64_t> order[2];
    for (int64_t r = 0; r < set.rows; ++r) order[set.labels[static_cast<size_t>(r)] == 10 ? 0 : 1].push_back(r);
    std::vector<int64_t> rows = order[0];
    rows.insert(rows.end(), order[1].begin(), order[1].end());
    const size_t l = rows.size();
    std::vector<float> kernel(l * l);
    for (size_t i = 0; i < l; ++i) {
      for (size_t j = 0; j < l; ++j) {
        double distance = 0.0;
        for (int64_t d = 0; d < set.dim; ++d) {
          const double diff = set.row(rows[i])[d] - set.row(rows[j])[d];
          distance += diff * diff;
        }
        kernel[i * l + j] = static_cast<float>(std::exp(-distance / 8.0));
      }
    }
    std::vector<uint16_t> stored;
    for (const float k : kernel) stored.push_back(to_unorm16(k));
    const int64_t positives = static_cast<int64_t>(order[0].size());
    for (const double C : {1.0, 10.0}) {
      CAPTURE(C);
      const SmoSettings settings{C, 1e-3, true, 0};
      const SmoResult exact =
          solve_smo(PairKernel::dense(kernel.data(), static_cast<int64_t>(l), positives), settings);
      const SmoResult rounded = solve_smo(
          PairKernelUnorm16::dense(stored.data(), static_cast<int64_t>(l), positives), settings);
      REQUIRE(exact.converged);
      REQUIRE(rounded.converged);
      CHECK(std::fabs(rounded.objective - exact.objective) <= 1e-3 * std::fabs(exact.objective));
      CHECK(std::fabs(rounded.rho - exact.rho) <= 0.02);
      // Decision values on the training rows, both with the float32 kernel:
      // a sign may differ only where the float32 model is itself undecided.
      for (size_t t = 0; t < l; ++t) {
        double a = -exact.rho;
        double b = -rounded.rho;
        for (size_t j = 0; j < l; ++j) {
          const double y = static_cast<int64_t>(j) < positives ? 1.0 : -1.0;
          a += y * exact.alpha[j] * kernel[t * l + j];
          b += y * rounded.alpha[j] * kernel[t * l + j];
        }
        if ((a > 0) != (b > 0)) CHECK(std::fabs(a) < 0.02);
      }
    }
  }
}

TEST_CASE("a diagonal block is stored as made, float32 or unorm16, and gives back its bytes") {
  for (const KernelValues values : {KernelValues::Float32, KernelValues::Unorm16}) {
    CAPTURE(kernel_values_name(values));
    uint64_t given_back = 0;
    {
      const auto block = make_diagonal_block(70, values, [&](uint64_t bytes) { given_back += bytes; });
      const bool unorm16 = values == KernelValues::Unorm16;
      CHECK((block->float32() != nullptr) == !unorm16);
      CHECK((block->unorm16() != nullptr) == unorm16);
      CHECK((block->float32_out() != nullptr) == !unorm16);
      CHECK((block->unorm16_out() != nullptr) == unorm16);
      CHECK(given_back == 0);
    }
    CHECK(given_back == diagonal_block_bytes(70, values));
  }
  CHECK(diagonal_block_bytes(70, KernelValues::Unorm16) * 2 ==
        diagonal_block_bytes(70, KernelValues::Float32));
  CHECK_THROWS_AS(DiagonalBlock(70, KernelValues::Auto), SvmError);
}

TEST_CASE("the parallel conversion into another buffer equals the in-place one") {
  std::mt19937_64 random(11);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  // Sizes around the slices each thread takes (65,536 values) and the chunks
  // inside them (2,048).
  for (const size_t count : {size_t{1}, size_t{2049}, size_t{65535}, size_t{65536},
                             size_t{65537}, size_t{3 * 65536 + 17}}) {
    for (const int threads : {1, 3, 4}) {
      CAPTURE(count);
      CAPTURE(threads);
      std::vector<float> values(count);
      for (float& v : values) v = unit(random);
      std::vector<uint16_t> out(count + 1, 7);  // the value after the range stays untouched
      convert_to_unorm16(values.data(), count, out.data(), threads);
      const uint16_t* in_place = convert_to_unorm16(values.data(), count);
      CHECK(std::equal(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(count), in_place));
      CHECK(out[count] == 7);
    }
  }
  // A bad value is named by its index in the whole block, whichever thread met it.
  std::vector<float> bad(5 * 65536, 0.25f);
  bad[3 * 65536 + 5] = std::nanf("");
  bad[4 * 65536 + 1] = -1.0f;
  std::vector<uint16_t> out(bad.size());
  CHECK_THROWS_WITH_AS(convert_to_unorm16(bad.data(), bad.size(), out.data(), 4),
                       doctest::Contains("(entry 196613)"), SvmError);
}

TEST_CASE("a unorm16 SMO workspace takes half the bytes, just room for the float32 K(a,b)") {
  CHECK(PairWorkspace::bytes_for(10000, SolverKind::Smo, KernelValues::Unorm16) == 100000000u);
  // Equal classes are the tightest: 20 x 20 float32 values fill it exactly,
  // and their unorm16 rewrite and its transpose fill it again.
  const PairWorkspace unorm16(40, SolverKind::Smo, KernelValues::Unorm16);
  CHECK(unorm16.bytes() == 20u * 20u * sizeof(float));
  CHECK(unorm16.bytes() == 2u * 20u * 20u * sizeof(uint16_t));
  CHECK(unorm16.values() == KernelValues::Unorm16);
  // Any split of 41 rows: n_a n_b floats fit.
  const PairWorkspace odd(41, SolverKind::Smo, KernelValues::Unorm16);
  for (uint64_t a = 1; a < 41; ++a) CHECK(a * (41 - a) * sizeof(float) <= odd.bytes());
  // libsvm's workspace holds its dense float32 kernel whatever is asked.
  const PairWorkspace libsvm(40, SolverKind::Libsvm, KernelValues::Unorm16);
  CHECK(libsvm.values() == KernelValues::Float32);
  CHECK_THROWS_AS(PairWorkspace(40, SolverKind::Smo, KernelValues::Auto), SvmError);
}
