// The class pairs solved by the backend (svm_dual_solve, svm/device_pairs.hpp)
// against the host's SMO on the same kernels: both stop at the same KKT
// tolerance, so their models may differ only within it. What could fail: a
// pair given the wrong rows or blocks, a sign of y lost, rho taken from the
// wrong side, the Cs of a search out of order, a warm start that is not the
// previous solution. And where the solver runs: auto, host, backend, refusals.
#include "svm/device_pairs.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "svm/ovo_trainer.hpp"
#include "svm/predictor.hpp"
#include "svm/svm_error.hpp"
#include "svm/validation.hpp"
#include "svm/warm_search.hpp"
#include "test_data.hpp"

namespace cae::svm {
namespace {

// Without the solver, or without ABI 1.10's kernel from the product (every
// gamma's kernel computed in full).
Context& cpu_without_solver() { return test::cpu_without<&cae_backend_table::svm_dual_solve>(); }
Context& cpu_without_kernel_reuse() {
  return test::cpu_without<&cae_backend_table::kernel_rbf_from_linear>();
}

double agreement(const std::vector<int32_t>& a, const std::vector<int32_t>& b) {
  REQUIRE(a.size() == b.size());
  size_t same = 0;
  for (size_t i = 0; i < a.size(); ++i) same += a[i] == b[i] ? 1 : 0;
  return double(same) / double(a.size());
}

TEST_CASE("the backend's pairs give the host's model within the solver's tolerance") {
  for (const uint64_t seed : {3u, 11u, 29u}) {
    INFO("seed " << seed);
    const FeatureSet train = test::clustered(4, 80, 12, 1.2, seed, 3);
    const FeatureSet test = test::clustered(4, 50, 12, 1.2, seed + 100, 3);
    TrainOptions options;
    options.threads = 2;
    options.C = 2.0;
    options.solver_place = SolverPlace::Host;
    TrainStats host_stats, backend_stats;
    const OvoModel host = train_ovo(test::cpu_context(), train, options, &host_stats);
    options.solver_place = SolverPlace::Backend;
    const OvoModel backend = train_ovo(test::cpu_context(), train, options, &backend_stats);
    CHECK_FALSE(host_stats.solved_on_backend);
    CHECK(backend_stats.solved_on_backend);
    REQUIRE(host.pairs.size() == backend.pairs.size());
    for (size_t p = 0; p < host.pairs.size(); ++p) {
      CHECK(host.pairs[p].pair.first == backend.pairs[p].pair.first);
      CHECK(host.pairs[p].pair.second == backend.pairs[p].pair.second);
      CHECK(std::fabs(host.pairs[p].rho - backend.pairs[p].rho) < 0.05);
    }
    CHECK(std::abs(host.sv_count - backend.sv_count) <= host.sv_count / 20 + 2);
    const double same = agreement(predict(test::cpu_context(), host, test).labels,
                                  predict(test::cpu_context(), backend, test).labels);
    CHECK(same >= 0.98);
  }
}

TEST_CASE("the warm search on the backend's pairs chooses as the host's does") {
  const FeatureSet train = test::clustered(4, 60, 8, 0.9, 33, 3);
  const ValidationSplit split = split_for_validation(train, 60, 9);
  TrainOptions base;
  base.threads = 2;
  const std::vector<double> Cs = {10.0, 0.05, 1.0};  // not sorted: the search sorts them
  const std::vector<GammaPolicy> gammas = {GammaPolicy::parse("0.03"), GammaPolicy::parse("scale")};
  base.solver_place = SolverPlace::Host;
  const SearchOutcome host =
      search_hyper_parameters_warm({&test::cpu_context()}, train, split, base, Cs, gammas);
  base.solver_place = SolverPlace::Backend;
  const SearchOutcome backend =
      search_hyper_parameters_warm({&test::cpu_context()}, train, split, base, Cs, gammas);
  REQUIRE(host.results.size() == backend.results.size());
  bool spread = false;
  for (size_t i = 0; i < host.results.size(); ++i) {
    INFO("candidate " << i);
    CHECK(host.results[i].candidate.C == backend.results[i].candidate.C);
    CHECK(std::fabs(host.results[i].validation_accuracy - backend.results[i].validation_accuracy) <=
          0.034);  // two of 60 rows
    spread = spread || host.results[i].validation_accuracy != host.results[0].validation_accuracy;
  }
  CHECK(spread);
  CHECK(backend.results.back().phases.find("pairs solved on the backend") != std::string::npos);
  CHECK(backend.best_stats.solved_on_backend);
}

TEST_CASE("a search's gammas made from one product give the search of full kernels, bit for bit") {
  const FeatureSet train = test::clustered(4, 60, 8, 0.9, 41, 3);
  const ValidationSplit split = split_for_validation(train, 60, 5);
  TrainOptions base;
  base.threads = 2;
  base.solver_place = SolverPlace::Backend;
  const std::vector<double> Cs = {0.5, 4.0};
  const std::vector<GammaPolicy> gammas = {GammaPolicy::parse("0.02"), GammaPolicy::parse("0.2"),
                                           GammaPolicy::parse("scale")};
  REQUIRE(test::cpu_context().has_kernel_rbf_from_linear());
  REQUIRE_FALSE(cpu_without_kernel_reuse().has_kernel_rbf_from_linear());
  const SearchOutcome reused =
      search_hyper_parameters_warm({&test::cpu_context()}, train, split, base, Cs, gammas);
  const SearchOutcome full =
      search_hyper_parameters_warm({&cpu_without_kernel_reuse()}, train, split, base, Cs, gammas);
  REQUIRE(reused.results.size() == full.results.size());
  bool spread = false;
  for (size_t i = 0; i < full.results.size(); ++i) {
    INFO("candidate " << i);
    CHECK(reused.results[i].candidate.C == full.results[i].candidate.C);
    CHECK(reused.results[i].validation_accuracy == full.results[i].validation_accuracy);
    CHECK(reused.results[i].solver_iterations == full.results[i].solver_iterations);
    spread = spread || full.results[i].validation_accuracy != full.results[0].validation_accuracy;
  }
  CHECK(spread);
  REQUIRE(reused.best_model.sv_count == full.best_model.sv_count);
  REQUIRE(reused.best_model.pairs.size() == full.best_model.pairs.size());
  for (size_t p = 0; p < full.best_model.pairs.size(); ++p) {
    CHECK(reused.best_model.pairs[p].rho == full.best_model.pairs[p].rho);
    CHECK(reused.best_model.pairs[p].coef == full.best_model.pairs[p].coef);
  }
}

TEST_CASE("auto solves on the backend only where it has the solver and memory of its own") {
  TrainOptions options;
  CHECK_FALSE(pairs_on_backend({&test::cpu_context()}, options));  // host memory: the host's
  CHECK(pairs_on_backend({&test::cpu_with_host_memory()}, options));
  CHECK_FALSE(pairs_on_backend({&cpu_without_solver()}, options));
  options.solver = SolverKind::Libsvm;
  CHECK_FALSE(pairs_on_backend({&test::cpu_with_host_memory()}, options));
  options.solver = SolverKind::Smo;
  options.kernel_values = KernelValues::Unorm16;
  CHECK_FALSE(pairs_on_backend({&test::cpu_with_host_memory()}, options));
  options.kernel_values = KernelValues::Auto;
  options.solver_place = SolverPlace::Host;
  CHECK_FALSE(pairs_on_backend({&test::cpu_with_host_memory()}, options));
}

TEST_CASE("backend is refused, with the reason, where it cannot be had") {
  TrainOptions options;
  options.solver_place = SolverPlace::Backend;
  CHECK(pairs_on_backend({&test::cpu_context()}, options));
  CHECK_THROWS_WITH_AS(pairs_on_backend({&cpu_without_solver()}, options),
                       doctest::Contains("does not solve the SVM's dual problems"), SvmError);
  options.solver = SolverKind::Libsvm;
  CHECK_THROWS_WITH_AS(pairs_on_backend({&test::cpu_context()}, options),
                       doctest::Contains("--svm-solver smo"), SvmError);
  options.solver = SolverKind::Smo;
  options.kernel_values = KernelValues::Unorm16;
  CHECK_THROWS_WITH_AS(pairs_on_backend({&test::cpu_context()}, options),
                       doctest::Contains("unorm16"), SvmError);
}

}  // namespace
}  // namespace cae::svm
