// The kernel SVM across ranks: the byte exchange gives every rank every
// rank's bytes unchanged, every pair goes to one rank, the solutions survive
// their byte form, and a training or a search whose pairs are spread over
// ranks (threads here, each with its own cpu context) gives every rank the
// model one process makes, bit for bit; so does the linear classifier whose
// rows are spread over them.
#include "svm/pair_share.hpp"

#include <doctest/doctest.h>

#include <cstring>
#include <memory>
#include <mutex>

#include "plugin/byte_exchange.hpp"
#include "svm/class_layout.hpp"
#include "svm/linear_trainer.hpp"
#include "svm/ovo_trainer.hpp"
#include "svm/svm_error.hpp"
#include "svm/validation.hpp"
#include "svm/warm_search.hpp"
#include "test_data.hpp"
#include "thread_ranks.hpp"

namespace cae::svm {
namespace {

// Bit-for-bit equality of two models' numbers.
void check_same_model(const OvoModel& a, const OvoModel& b) {
  REQUIRE(a.sv_count == b.sv_count);
  CHECK(a.sv_source == b.sv_source);
  CHECK(a.sv_class == b.sv_class);
  CHECK(std::memcmp(a.sv_rows.data(), b.sv_rows.data(), a.sv_rows.size() * sizeof(float)) == 0);
  CHECK(a.gamma == b.gamma);
  REQUIRE(a.pairs.size() == b.pairs.size());
  for (size_t p = 0; p < a.pairs.size(); ++p) {
    CHECK(a.pairs[p].support == b.pairs[p].support);
    CHECK(a.pairs[p].coef == b.pairs[p].coef);
    CHECK(a.pairs[p].rho == b.pairs[p].rho);
  }
  CHECK(a.standardizer.mean() == b.standardizer.mean());
  CHECK(a.standardizer.scale() == b.standardizer.scale());
}

TEST_CASE("every rank receives every rank's bytes unchanged, any sizes, any tiles") {
  const std::vector<std::vector<uint8_t>> sent = {{}, {0xff}, {1, 2, 3, 4, 5, 0, 0xff, 0x80, 7}};
  for (const size_t tile_bytes : {size_t(4), size_t(8), size_t(1) << 20}) {
    std::mutex checks;
    test::run_ranks(3, [&](int32_t rank, ProcessGroup& group) {
      const std::unique_ptr<Context> context = test::new_cpu_context();
      const std::vector<std::vector<uint8_t>> got =
          all_gather_bytes(group, *context, sent[size_t(rank)], tile_bytes);
      std::lock_guard<std::mutex> lock(checks);
      CHECK(got == sent);
    });
  }
}

TEST_CASE("the pairs go to the ranks once each, largest first, some ranks may get none") {
  const FeatureSet set = test::clustered(5, 20, 4, 0.6, 3, 0);
  const ClassLayout layout = ClassLayout::of(set, all_rows(set));
  for (const int32_t world : {1, 2, 3, 16}) {
    std::vector<int> seen(25, 0);
    size_t total = 0;
    for (int32_t rank = 0; rank < world; ++rank) {
      for (const ClassPair& pair : pairs_of_rank(layout, rank, world)) {
        ++seen[size_t(pair.first * 5 + pair.second)];
        ++total;
      }
    }
    CHECK(total == 10);
    for (const ClassPair& pair : class_pairs(5))
      CHECK(seen[size_t(pair.first * 5 + pair.second)] == 1);
    if (world == 16) CHECK(pairs_of_rank(layout, 15, world).empty());
  }
  CHECK_THROWS_AS(pairs_of_rank(layout, 2, 2), SvmError);
}

TEST_CASE("a pair's solutions survive their byte form; a cut form is refused") {
  SmoPairSolution s;
  s.solution.pair = {1, 3};
  s.solution.support = {4, 9, int64_t(1) << 40};
  s.solution.coef = {0.5f, -1e-30f, 3.0f};
  s.solution.rho = -0.25f;
  s.solution.converged = false;
  s.objective = -12.5;
  s.iterations = 77;
  s.converged = true;
  s.seconds = 0.125;
  const std::vector<std::vector<SmoPairSolution>> chains = {{s, s}, {}, {s}};
  const std::vector<uint8_t> bytes = encode_chains(chains);
  const std::vector<std::vector<SmoPairSolution>> back = decode_chains(bytes);
  REQUIRE(back.size() == 3);
  CHECK(back[0].size() == 2);
  CHECK(back[1].empty());
  const SmoPairSolution& r = back[2].front();
  CHECK(r.solution.pair.first == 1);
  CHECK(r.solution.pair.second == 3);
  CHECK(r.solution.support == s.solution.support);
  CHECK(r.solution.coef == s.solution.coef);
  CHECK(r.solution.rho == s.solution.rho);
  CHECK(!r.solution.converged);
  CHECK(r.objective == s.objective);
  CHECK(r.iterations == 77);
  CHECK(r.converged);
  CHECK(r.seconds == s.seconds);
  std::vector<uint8_t> cut(bytes.begin(), bytes.end() - 1);
  CHECK_THROWS_AS(decode_chains(cut), SvmError);
  std::vector<uint8_t> longer = bytes;
  longer.push_back(0);
  CHECK_THROWS_AS(decode_chains(longer), SvmError);
}

TEST_CASE("a training spread over ranks gives every rank the one-process model") {
  const FeatureSet train = test::clustered(4, 40, 8, 0.7, 21, 0);
  TrainOptions options;
  options.C = 2.0;
  options.threads = 2;
  const OvoModel alone = train_ovo(test::cpu_context(), train, options);
  for (const int32_t world : {2, 3, 7}) {
    std::vector<OvoModel> models(static_cast<size_t>(world));
    test::run_ranks(world, [&](int32_t rank, ProcessGroup& group) {
      const std::unique_ptr<Context> context = test::new_cpu_context();
      TrainOptions mine = options;
      mine.threads = 1 + rank % 2;  // the model does not depend on a rank's threads
      mine.ranks = {&group, context.get()};
      models[size_t(rank)] = train_ovo(*context, train, mine);
    });
    for (const OvoModel& model : models) check_same_model(model, alone);
  }
}

TEST_CASE("a warm search spread over ranks scores and keeps what one process does") {
  const FeatureSet train = test::clustered(3, 50, 6, 0.8, 8, 0);
  const ValidationSplit split = split_for_validation(train, 30, 4);
  TrainOptions base;
  base.threads = 2;
  const std::vector<double> Cs = {0.5, 4.0};
  const std::vector<GammaPolicy> gammas = {GammaPolicy::parse("scale"), GammaPolicy::parse("0.3")};
  const SearchOutcome alone =
      search_hyper_parameters_warm({&test::cpu_context()}, train, split, base, Cs, gammas);
  std::vector<SearchOutcome> outcomes(2);
  test::run_ranks(2, [&](int32_t rank, ProcessGroup& group) {
    const std::unique_ptr<Context> context = test::new_cpu_context();
    TrainOptions mine = base;
    mine.ranks = {&group, context.get()};
    outcomes[size_t(rank)] =
        search_hyper_parameters_warm({context.get()}, train, split, mine, Cs, gammas);
  });
  for (const SearchOutcome& outcome : outcomes) {
    REQUIRE(outcome.results.size() == alone.results.size());
    for (size_t i = 0; i < alone.results.size(); ++i) {
      CHECK(outcome.results[i].validation_accuracy == alone.results[i].validation_accuracy);
      CHECK(outcome.results[i].solver_iterations == alone.results[i].solver_iterations);
    }
    check_same_model(outcome.best_model, alone.best_model);
  }
}

}  // namespace
}  // namespace cae::svm

namespace cae::svm {
namespace {

// Trains on `world` ranks, each with a context of its own (its passes on it
// when `on_backend`), and checks that every rank has `alone`, bit for bit.
void check_ranks_give(const LinearModel& alone, const FeatureSet& train,
                      const LinearOptions& options, bool on_backend) {
  for (const int32_t world : {2, 3}) {
    CAPTURE(world);
    std::vector<LinearModel> models(static_cast<size_t>(world));
    test::run_ranks(world, [&](int32_t rank, ProcessGroup& group) {
      const std::unique_ptr<Context> context = test::new_cpu_context();
      LinearOptions mine = options;
      mine.threads = 1 + rank % 2;
      mine.ranks = {&group, context.get()};
      if (on_backend) mine.devices = {context.get()};
      models[size_t(rank)] = train_linear(train, all_rows(train), mine);
    });
    for (const LinearModel& model : models) {
      CHECK(model.iterations == alone.iterations);
      CHECK(model.weights == alone.weights);
      CHECK(model.bias == alone.bias);
      CHECK(model.loss == alone.loss);
    }
  }
}

TEST_CASE("a linear classifier spread over ranks gives every rank the one-process model") {
  // 300 rows: blocks of 256 rows make 2 groups, so a third rank has none.
  const FeatureSet train = test::clustered(3, 100, 5, 0.7, 17, 0);
  LinearOptions options;
  options.C = 3.0;
  options.threads = 2;
  check_ranks_give(train_linear(train, all_rows(train), options), train, options, false);
}

TEST_CASE("with the passes on the backend too: each group's product and its blocks' sums") {
  // 1,101 rows: 5 blocks of 256 rows in 5 groups on the backend.
  const FeatureSet train = test::clustered(3, 367, 5, 0.7, 19, 0);
  LinearOptions options;
  options.C = 3.0;
  options.threads = 2;
  const std::unique_ptr<Context> own = test::new_cpu_context();
  LinearOptions alone = options;
  alone.devices = {own.get()};
  check_ranks_give(train_linear(train, all_rows(train), alone), train, options, true);
}

}  // namespace
}  // namespace cae::svm
