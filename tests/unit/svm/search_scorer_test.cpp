// Where the warm search scores its gammas: on a context and thread of their
// own when the backend offers page-locked host memory (its copies have an
// engine of their own), else on the producer's context between its kernels.
// The cpu backend offers none, so here it is given some
// (test::cpu_with_host_memory: a host_alloc that is plain malloc). Both ways
// must give the same search.
#include "svm/warm_search.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "svm/svm_error.hpp"
#include "test_data.hpp"

namespace cae::svm {
namespace {

TEST_CASE("the warm search scores on a context of its own where copies have their own engine") {
  REQUIRE(!test::cpu_context().has_host_memory());
  REQUIRE(test::cpu_with_host_memory().has_host_memory());
  const FeatureSet train = test::clustered(4, 60, 8, 0.9, 33, 3);
  const ValidationSplit split = split_for_validation(train, 60, 9);
  TrainOptions base;
  base.threads = 2;
  base.solver_place = SolverPlace::Host;  // the host's solvers, beside which the scorer runs
  const std::vector<double> Cs = {0.05, 1.0, 10.0};
  const std::vector<GammaPolicy> gammas = {GammaPolicy::parse("0.03"), GammaPolicy::parse("scale"),
                                           GammaPolicy::parse("0.4")};
  const SearchOutcome between =
      search_hyper_parameters_warm({&test::cpu_context()}, train, split, base, Cs, gammas);
  size_t calls = 0;
  const SearchOutcome own = search_hyper_parameters_warm(
      {&test::cpu_with_host_memory()}, train, split, base, Cs, gammas,
      [&](size_t done, size_t total, const SearchResult&) {
        CHECK(done == ++calls);  // in order, from one thread at a time
        CHECK(total == Cs.size() * gammas.size());
      });
  CHECK(calls == Cs.size() * gammas.size());
  REQUIRE(own.results.size() == between.results.size());
  CHECK(between.results.back().phases.find("on the producer's context") != std::string::npos);
  CHECK(own.results.back().phases.find("on a context of their own") != std::string::npos);
  bool spread = false;  // the candidates must not all score alike, or the test says nothing
  for (size_t i = 0; i < own.results.size(); ++i) {
    INFO("candidate " << i);
    CHECK(own.results[i].candidate.C == between.results[i].candidate.C);
    CHECK(own.results[i].gamma_value == between.results[i].gamma_value);
    // The same kernels and solutions, scored by the same backend code.
    CHECK(own.results[i].validation_accuracy == between.results[i].validation_accuracy);
    spread = spread || own.results[i].validation_accuracy != own.results[0].validation_accuracy;
  }
  CHECK(spread);
  CHECK(own.best_model.C == between.best_model.C);
  CHECK(own.best_model.gamma == between.best_model.gamma);
  CHECK(own.best_model.sv_count == between.best_model.sv_count);
}

TEST_CASE("a warm search that fails with its scorer waiting ends with the error, not a hang") {
  const FeatureSet train = test::clustered(3, 50, 6, 0.9, 4, 3);
  const ValidationSplit split = split_for_validation(train, 30, 2);
  TrainOptions base;
  base.threads = 2;
  base.solver_place = SolverPlace::Host;
  base.memory_cap_bytes = 1;  // no pair fits: the run fails before any gamma is solved
  CHECK_THROWS_WITH_AS(search_hyper_parameters_warm({&test::cpu_with_host_memory()}, train, split, base,
                                                    {1.0}, {GammaPolicy::parse("scale")}),
                       doctest::Contains("memory cap"), SvmError);
}

}  // namespace
}  // namespace cae::svm
