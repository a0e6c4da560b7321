// The warm-started search: SMO seeded with a smaller C's solution (alphas and
// gradient) reaches the cold start's solution within the solver's tolerance
// (both stop at a KKT violation <= eps = 1e-3), the pairs' start order changes
// no solution, a run of several kernels (the search's gammas) solves each
// pair as separate runs do, and the search that solves every C on one kernel
// per gamma chooses the candidate the exhaustive search chooses.
#include "svm/warm_search.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <mutex>
#include <numeric>
#include <thread>
#include <utility>

#include "svm/class_layout.hpp"
#include "svm/kernel_values.hpp"
#include "svm/pair_run.hpp"
#include "svm/predictor.hpp"
#include "svm/smo_solver.hpp"
#include "svm/svm_error.hpp"
#include "test_data.hpp"

namespace cae::svm {
namespace {

// Two overlapping classes, the first class's rows first, and their RBF kernel.
struct TwoClasses {
  std::vector<int64_t> first, second;
  std::vector<float> kernel;  // [l, l] in that row order
  PairRows rows;
};

TwoClasses two_classes(uint64_t seed) {
  const FeatureSet set = test::clustered(2, 90, 6, 0.6, seed, 1);
  TwoClasses out;
  for (int64_t r = 0; r < set.rows; ++r) {
    (set.labels[static_cast<size_t>(r)] == 10 ? out.first : out.second).push_back(r);
  }
  std::vector<int64_t> order = out.first;
  order.insert(order.end(), out.second.begin(), out.second.end());
  const size_t l = order.size();
  out.kernel.resize(l * l);
  for (size_t i = 0; i < l; ++i) {
    for (size_t j = 0; j < l; ++j) {
      double distance = 0.0;
      for (int64_t d = 0; d < set.dim; ++d) {
        const double diff = set.row(order[i])[d] - set.row(order[j])[d];
        distance += diff * diff;
      }
      out.kernel[i * l + j] = static_cast<float>(std::exp(-distance / 6.0));
    }
  }
  out.rows.pair = {0, 1};
  out.rows.rows[0] = &out.first;
  out.rows.rows[1] = &out.second;
  return out;
}

// Decision values on the training rows themselves (support rows are row indices).
std::vector<double> training_decisions(const TwoClasses& data, const PairSolution& s) {
  const size_t l = data.first.size() + data.second.size();
  std::vector<int64_t> order = data.first;
  order.insert(order.end(), data.second.begin(), data.second.end());
  std::vector<size_t> position(l);
  for (size_t i = 0; i < l; ++i) position[static_cast<size_t>(order[i])] = i;
  std::vector<double> out(l, -double(s.rho));
  for (size_t t = 0; t < l; ++t) {
    for (size_t k = 0; k < s.support.size(); ++k) {
      out[t] += double(s.coef[k]) * data.kernel[t * l + position[static_cast<size_t>(s.support[k])]];
    }
  }
  return out;
}

// The same kernel stored as unorm16 (kernel_values.hpp), row-major [l, l].
std::vector<uint16_t> unorm16_of(const std::vector<float>& kernel) {
  std::vector<uint16_t> out;
  for (const float k : kernel) out.push_back(to_unorm16(k));
  return out;
}

// Every C of a chain warm-started against its cold start on `kernel` (the
// data's kernel, as stored).
template <class Value>
void check_chain_against_cold_starts(const TwoClasses& data, const PairKernelOf<Value>& kernel) {
  SolverSettings settings;
  const std::vector<double> Cs = {0.5, 1.0, 2.0, 5.0, 10.0, 20.0};
  const std::vector<SmoPairSolution> chain = solve_pair_for_each_C(data.rows, kernel, Cs, settings);
  REQUIRE(chain.size() == Cs.size());
  int64_t warm_iterations = 0;
  int64_t cold_iterations = 0;
  for (size_t a = 0; a < Cs.size(); ++a) {
    INFO("C " << Cs[a]);
    settings.C = Cs[a];
    const SmoPairSolution cold = solve_pair_smo(data.rows, kernel, settings);
    CHECK(chain[a].converged);
    CHECK(cold.converged);
    CHECK(std::fabs(chain[a].objective - cold.objective) <= 1e-3 * std::fabs(cold.objective));
    CHECK(std::fabs(chain[a].solution.rho - cold.solution.rho) <= 0.05);
    const std::vector<double> warm_dec = training_decisions(data, chain[a].solution);
    const std::vector<double> cold_dec = training_decisions(data, cold.solution);
    for (size_t t = 0; t < warm_dec.size(); ++t) {
      if ((warm_dec[t] > 0) != (cold_dec[t] > 0)) CHECK(std::fabs(cold_dec[t]) < 0.05);
    }
    if (a > 0) {
      warm_iterations += chain[a].iterations;
      cold_iterations += cold.iterations;
    }
  }
  // What seeding is for: the later Cs start close to their solution.
  INFO("SMO iterations after the first C: warm " << warm_iterations << ", cold " << cold_iterations);
  CHECK(warm_iterations < cold_iterations);
}

TEST_CASE("a warm-started SMO solve reaches the cold start's model within the solver's tolerance") {
  for (const uint64_t seed : {3u, 4u, 5u}) {
    INFO("seed " << seed);
    const TwoClasses data = two_classes(seed);
    check_chain_against_cold_starts(
        data, PairKernel::dense(data.kernel.data(), data.rows.size(), data.rows.count(0)));
  }
}

TEST_CASE("on a unorm16 kernel too, a warm-started solve reaches the cold start's model") {
  for (const uint64_t seed : {3u, 4u, 5u}) {
    INFO("seed " << seed);
    const TwoClasses data = two_classes(seed);
    const std::vector<uint16_t> stored = unorm16_of(data.kernel);
    check_chain_against_cold_starts(
        data, PairKernelUnorm16::dense(stored.data(), data.rows.size(), data.rows.count(0)));
  }
}

TEST_CASE("a start with its gradient given solves as the start whose gradient SMO recomputes") {
  const TwoClasses data = two_classes(4);
  const PairKernel kernel =
      PairKernel::dense(data.kernel.data(), data.rows.size(), data.rows.count(0));
  const SmoResult small = solve_smo(kernel, SmoSettings{0.5, 1e-3, true, 0});
  REQUIRE(small.converged);
  REQUIRE(small.gradient.size() == small.alpha.size());
  // The carried gradient is Q a - e for the result's alphas.
  for (size_t t = 0; t < small.alpha.size(); t += 17) {
    double sum = 0.0;
    const double yt = static_cast<int64_t>(t) < data.rows.count(0) ? 1.0 : -1.0;
    for (size_t j = 0; j < small.alpha.size(); ++j) {
      const double yj = static_cast<int64_t>(j) < data.rows.count(0) ? 1.0 : -1.0;
      sum += yt * yj * small.alpha[j] * kernel.at(static_cast<int64_t>(t), static_cast<int64_t>(j));
    }
    CHECK(small.gradient[t] == doctest::Approx(sum - 1.0).epsilon(1e-6));
  }
  const SmoSettings larger{5.0, 1e-3, true, 0};
  const SmoResult given = solve_smo(kernel, larger, small.alpha, small.gradient);
  const SmoResult recomputed = solve_smo(kernel, larger, small.alpha);
  CHECK(given.converged);
  CHECK(given.objective == doctest::Approx(recomputed.objective).epsilon(1e-6));
  CHECK(given.rho == doctest::Approx(recomputed.rho).epsilon(1e-4));
  // A start that already is the solution needs no step.
  const SmoResult again = solve_smo(kernel, larger, given.alpha, given.gradient);
  CHECK(again.iterations == 0);
  CHECK(again.alpha == given.alpha);
  // A gradient of another length, or one without its start, is refused.
  std::vector<double> short_gradient = small.gradient;
  short_gradient.pop_back();
  CHECK_THROWS_AS(solve_smo(kernel, larger, small.alpha, short_gradient), SvmError);
  CHECK_THROWS_AS(solve_smo(kernel, larger, {}, small.gradient), SvmError);
  std::vector<double> bad_gradient = small.gradient;
  bad_gradient[0] = std::nan("");
  CHECK_THROWS_AS(solve_smo(kernel, larger, small.alpha, bad_gradient), SvmError);
}

// A small clustered training set with what run_class_pairs needs around it:
// its class layout, its standardizer, the options (`threads` workers) and
// their solver settings. The inputs point into it: it stays where it is.
struct SmallRun {
  SmallRun(FeatureSet set, int threads)
      : train(std::move(set)), layout(ClassLayout::of(train)), standardizer(Standardizer::fit(train)) {
    options.threads = threads;
    settings = solver_settings(options);
  }
  SmallRun(const SmallRun&) = delete;
  PairRunInput input(const KernelSpec& spec) const {
    return pair_run_input(train, layout, standardizer, spec, options);
  }
  FeatureSet train;
  ClassLayout layout;
  Standardizer standardizer;
  TrainOptions options;
  SolverSettings settings;
};

// Solutions in class-pair order (a run returns them in the order they finished).
std::vector<PairSolution> by_pair(std::vector<PairSolution> solutions) {
  std::sort(solutions.begin(), solutions.end(), [](const PairSolution& a, const PairSolution& b) {
    return std::make_pair(a.pair.first, a.pair.second) <
           std::make_pair(b.pair.first, b.pair.second);
  });
  return solutions;
}

// The same solutions, to the last bit.
void check_same_solutions(const std::vector<PairSolution>& a, const std::vector<PairSolution>& b) {
  REQUIRE(a.size() == b.size());
  for (size_t p = 0; p < a.size(); ++p) {
    CHECK(a[p].pair.first == b[p].pair.first);
    CHECK(a[p].pair.second == b[p].pair.second);
    CHECK(a[p].support == b[p].support);
    CHECK(a[p].coef == b[p].coef);
    CHECK(a[p].rho == b[p].rho);
  }
}

TEST_CASE("the order the class pairs start in changes no solution; a bad order is refused") {
  const SmallRun run(test::clustered(4, 30, 5, 0.8, 9, 2), 2);
  const PairSolve solve = [&](size_t, const PairRows& rows, PairWorkspace& workspace,
                              const PairDiagonals& diagonal) {
    return solve_pair(rows, workspace, run.settings, diagonal);
  };
  auto solutions_with = [&](std::vector<ClassPair> order) {
    PairRunInput input = run.input({KernelKind::Rbf, 0.2f});
    input.order = std::move(order);
    TrainStats stats;
    return by_pair(run_class_pairs({&test::cpu_context()}, input, solve, stats));
  };
  std::vector<ClassPair> reversed = class_pairs(run.layout.class_count());
  std::reverse(reversed.begin(), reversed.end());
  const std::vector<PairSolution> by_size = solutions_with({});
  const std::vector<PairSolution> backwards = solutions_with(reversed);
  REQUIRE(by_size.size() == 6);
  check_same_solutions(by_size, backwards);
  std::vector<ClassPair> twice = reversed;
  twice.back() = twice.front();
  CHECK_THROWS_AS(solutions_with(twice), SvmError);
  reversed.pop_back();
  CHECK_THROWS_AS(solutions_with(reversed), SvmError);
}

TEST_CASE("a run of several kernels solves every pair once per kernel, as separate runs do") {
  const SmallRun run(test::clustered(4, 30, 5, 0.8, 11, 2), 3);
  const std::vector<KernelSpec> specs = {{KernelKind::Rbf, 0.05f}, {KernelKind::Rbf, 0.4f},
                                         {KernelKind::Rbf, 1.5f}};
  // Each stage alone.
  std::vector<std::vector<PairSolution>> alone;
  for (const KernelSpec& spec : specs) {
    const PairRunInput input = run.input(spec);
    TrainStats stats;
    alone.push_back(by_pair(run_class_pairs(
        {&test::cpu_context()}, input,
        [&](size_t stage, const PairRows& rows, PairWorkspace& workspace,
            const PairDiagonals& diagonal) {
          CHECK(stage == 0);
          return solve_pair(rows, workspace, run.settings, diagonal);
        },
        stats)));
  }
  // All stages in one stream; after_kernels runs once, after every kernel.
  PairRunInput input = run.input(specs.front());
  input.specs = specs;
  std::mutex mutex;
  std::vector<std::vector<PairSolution>> together(specs.size());
  int after_kernels_calls = 0;
  input.after_kernels = [&] { ++after_kernels_calls; };
  TrainStats stats;
  const std::vector<PairSolution> all = run_class_pairs(
      {&test::cpu_context()}, input,
      [&](size_t stage, const PairRows& rows, PairWorkspace& workspace,
          const PairDiagonals& diagonal) {
        PairSolution solution = solve_pair(rows, workspace, run.settings, diagonal);
        std::lock_guard<std::mutex> lock(mutex);
        REQUIRE(stage < specs.size());
        together[stage].push_back(solution);
        return solution;
      },
      stats);
  CHECK(after_kernels_calls == 1);
  CHECK(all.size() == specs.size() * 6);
  CHECK(stats.pairs == int(specs.size() * 6));
  for (size_t stage = 0; stage < specs.size(); ++stage) {
    INFO("stage " << stage);
    check_same_solutions(by_pair(together[stage]), alone[stage]);
  }
  // The stages' kernels differ, or the comparison above says nothing.
  CHECK(alone[0][0].coef != alone[2][0].coef);
}

TEST_CASE("a solve that fails in a later stage ends the run with its error, without a hang") {
  const SmallRun run(test::clustered(3, 25, 4, 0.8, 12, 2), 2);
  PairRunInput input = run.input({KernelKind::Rbf, 0.2f});
  input.specs.push_back({KernelKind::Rbf, 0.6f});
  std::mutex mutex;
  std::condition_variable changed;
  bool waiting = false;  // after_kernels has started
  bool failed = false;
  bool waited = false;
  // As the search does: after the kernels, wait for a stage that never
  // completes; a solve of stage 1 fails only once that wait has begun.
  input.after_kernels = [&] {
    std::unique_lock<std::mutex> lock(mutex);
    waiting = true;
    changed.notify_all();
    changed.wait(lock, [&] { return failed; });
    waited = true;
  };
  TrainStats stats;
  CHECK_THROWS_WITH_AS(
      run_class_pairs(
          {&test::cpu_context()}, input,
          [&](size_t stage, const PairRows& rows, PairWorkspace& workspace,
              const PairDiagonals& diagonal) {
            if (stage == 1) {
              {
                std::unique_lock<std::mutex> lock(mutex);
                changed.wait(lock, [&] { return waiting; });
                failed = true;
              }
              changed.notify_all();
              throw SvmError("stage 1 refused");
            }
            return solve_pair(rows, workspace, run.settings, diagonal);
          },
          stats),
      "stage 1 refused", SvmError);
  CHECK(waited);
}

TEST_CASE("SMO refuses a starting point outside the box") {
  const TwoClasses data = two_classes(3);
  const PairKernel kernel =
      PairKernel::dense(data.kernel.data(), data.rows.size(), data.rows.count(0));
  std::vector<double> start(static_cast<size_t>(data.rows.size()), 0.0);
  start[0] = 2.0;  // above C = 1
  CHECK_THROWS_AS(solve_smo(kernel, SmoSettings{}, start), SvmError);
  start.pop_back();
  start[0] = 0.0;
  CHECK_THROWS_AS(solve_smo(kernel, SmoSettings{}, start), SvmError);
  CHECK_THROWS_AS(solve_pair_for_each_C(data.rows, kernel, {1.0, 0.5}, SolverSettings{}),
                  SvmError);
}

TEST_CASE("the warm search chooses the exhaustive search's candidate and model") {
  const FeatureSet train = test::clustered(3, 70, 8, 0.9, 21, 2);
  const ValidationSplit split = split_for_validation(train, 60, 5);
  TrainOptions base;
  base.threads = 2;
  // Not ascending: the warm search orders its chain itself.
  const std::vector<double> Cs = {2.0, 0.02, 0.3, 20.0};
  std::vector<GammaPolicy> gammas = {GammaPolicy::parse("scale"), GammaPolicy::parse("0.5")};
  const std::vector<Context*> contexts = {&test::cpu_context()};
  const SearchOutcome cold = search_hyper_parameters(contexts, train, split, base, Cs, gammas);
  size_t calls = 0;
  const SearchOutcome warm = search_hyper_parameters_warm(
      contexts, train, split, base, Cs, gammas,
      [&](size_t done, size_t total, const SearchResult&) {
        CHECK(done == ++calls);
        CHECK(total == Cs.size() * gammas.size());
      });
  CHECK(calls == Cs.size() * gammas.size());
  REQUIRE(warm.results.size() == cold.results.size());
  // Its account of the time: the chain's first C starts from zero, so it
  // iterates; the search's last candidate (C-major order), and only it,
  // carries the search's phases.
  for (size_t i = 0; i < warm.results.size(); ++i) {
    const SearchResult& r = warm.results[i];
    INFO("candidate " << i);
    CHECK(r.solver_iterations >= 0);
    CHECK(r.solver_seconds >= 0.0);
    if (r.candidate.C == 0.02) CHECK(r.solver_iterations > 0);
    const bool last = i + 1 == warm.results.size();
    CHECK(r.phases.empty() == !last);
    if (last) CHECK(r.phases.find("validation scores") != std::string::npos);
  }
  for (const SearchResult& r : cold.results) CHECK(r.phases.empty());
  bool spread = false;  // the candidates must not all score alike, or the test says nothing
  for (size_t i = 0; i < cold.results.size(); ++i) {
    const SearchResult& w = warm.results[i];
    const SearchResult& c = cold.results[i];
    INFO("candidate " << i << ": C " << c.candidate.C << ", gamma " << c.gamma_value);
    CHECK(w.candidate.C == c.candidate.C);
    CHECK(w.gamma_value == c.gamma_value);
    CHECK(std::fabs(w.validation_accuracy - c.validation_accuracy) <= 1.0 / 60 + 1e-12);
    spread = spread || c.validation_accuracy != cold.results[0].validation_accuracy;
  }
  CHECK(spread);
  const SearchResult& warm_best = best_of(warm.results);
  const SearchResult& cold_best = best_of(cold.results);
  CHECK(warm_best.candidate.C == cold_best.candidate.C);
  CHECK(warm_best.gamma_value == cold_best.gamma_value);
  CHECK(warm_best.validation_accuracy == cold_best.validation_accuracy);
  CHECK(warm.best_model.C == cold.best_model.C);
  CHECK(warm.best_model.gamma == cold.best_model.gamma);
  CHECK(warm.best_stats.support_vectors == warm.best_model.sv_count);
  // The kept model is the winner's: it predicts the validation rows as the cold one does.
  const Prediction a = predict(contexts, warm.best_model, split.validation);
  const Prediction b = predict(contexts, cold.best_model, split.validation);
  CHECK(test::agreement(a.labels, b.labels) >= 0.98);
  CHECK(accuracy(a.labels, split.validation.labels) == doctest::Approx(warm_best.validation_accuracy));

  // Both searches held the RBF kernel as unorm16 (auto); on the float32
  // kernel the warm search scores every candidate within a validation row
  // and chooses the same one.
  TrainOptions exact = base;
  exact.kernel_values = KernelValues::Float32;
  CHECK(search_options(base).kernel_values == KernelValues::Unorm16);
  CHECK(search_options(exact).kernel_values == KernelValues::Float32);
  const SearchOutcome warm_float32 =
      search_hyper_parameters_warm(contexts, train, split, exact, Cs, gammas);
  REQUIRE(warm_float32.results.size() == warm.results.size());
  for (size_t i = 0; i < warm.results.size(); ++i) {
    CHECK(std::fabs(warm_float32.results[i].validation_accuracy -
                    warm.results[i].validation_accuracy) <= 1.0 / 60 + 1e-12);
  }
  CHECK(best_of(warm_float32.results).candidate.C == warm_best.candidate.C);
  CHECK(best_of(warm_float32.results).gamma_value == warm_best.gamma_value);

  base.solver = SolverKind::Libsvm;
  CHECK_THROWS_AS(search_hyper_parameters_warm(contexts, train, split, base, Cs, gammas), SvmError);
}

TEST_CASE("the work between kernels runs on one thread before every task and after the last") {
  const SmallRun run(test::clustered(4, 30, 5, 0.8, 13, 2), 2);
  const PairSolve solve = [&](size_t, const PairRows& rows, PairWorkspace& workspace,
                              const PairDiagonals& diagonal) {
    return solve_pair(rows, workspace, run.settings, diagonal);
  };
  PairRunInput input = run.input({KernelKind::Rbf, 0.2f});
  int calls = 0;
  std::thread::id thread;
  bool one_thread = true;
  input.between_kernels = [&] {
    if (calls++ == 0) thread = std::this_thread::get_id();
    one_thread = one_thread && std::this_thread::get_id() == thread;
  };
  TrainStats stats;
  CHECK(run_class_pairs({&test::cpu_context()}, input, solve, stats).size() == 6);
  // 4 classes: 4 diagonal blocks and 6 pairs are the producer's tasks.
  CHECK(calls == 4 + 6 + 1);
  CHECK(one_thread);
  // What it throws ends the run with its error, without a hang.
  input.between_kernels = [&] {
    if (calls++ > 12) throw SvmError("the work between kernels failed");
  };
  CHECK_THROWS_WITH_AS(run_class_pairs({&test::cpu_context()}, input, solve, stats),
                       "the work between kernels failed", SvmError);
}

}  // namespace
}  // namespace cae::svm
