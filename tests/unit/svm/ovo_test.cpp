#include <doctest/doctest.h>
#include <svm.h>

#include <memory>

#include "svm/ovo_trainer.hpp"
#include "svm/pair_solver.hpp"
#include "svm/predictor.hpp"
#include "svm/svm_error.hpp"
#include "test_data.hpp"

using namespace cae::svm;

namespace {

constexpr int kClasses = 4;
constexpr int kOvoDim = 16;

FeatureSet training_set() { return test::clustered(kClasses, 60, kOvoDim, 0.6, 42, 0); }
FeatureSet test_set() { return test::clustered(kClasses, 50, kOvoDim, 0.6, 42, 1); }

// Classes of 60, 45, 30 and 20 rows: pairs of different sizes.
FeatureSet unbalanced_training_set() {
  const FeatureSet full = training_set();
  const int keep[kClasses] = {60, 45, 30, 20};
  int kept[kClasses] = {};
  FeatureSet set;
  set.dim = full.dim;
  for (int64_t i = 0; i < full.rows; ++i) {
    const int c = full.labels[static_cast<size_t>(i)] / 10 - 1;
    if (kept[c]++ >= keep[c]) continue;
    set.values.insert(set.values.end(), full.row(i), full.row(i) + full.dim);
    set.labels.push_back(full.labels[static_cast<size_t>(i)]);
    ++set.rows;
  }
  return set;
}

struct ModelFree {
  void operator()(svm_model* model) const { svm_free_and_destroy_model(&model); }
};

// libsvm's own multi-class RBF SVM (no precomputed kernel) on the same
// standardised data, C and gamma.
std::vector<int32_t> direct_libsvm(const FeatureSet& train, const FeatureSet& test,
                                   const OvoModel& model) {
  test::LibsvmRows rows = test::to_libsvm(train, model.standardizer);
  svm_problem problem{static_cast<int>(train.rows), rows.targets.data(), rows.pointers.data()};
  svm_parameter parameters{};
  parameters.svm_type = C_SVC;
  parameters.kernel_type = RBF;
  parameters.gamma = model.gamma;
  parameters.C = model.C;
  parameters.cache_size = 100;
  parameters.eps = 1e-3;
  parameters.shrinking = 1;
  configure_libsvm_output(false);
  REQUIRE(svm_check_parameter(&problem, &parameters) == nullptr);
  std::unique_ptr<svm_model, ModelFree> trained(svm_train(&problem, &parameters));
  const test::LibsvmRows queries = test::to_libsvm(test, model.standardizer);
  std::vector<int32_t> labels;
  for (svm_node* query : queries.pointers) {
    labels.push_back(static_cast<int32_t>(svm_predict(trained.get(), query)));
  }
  return labels;
}

TrainOptions small_options() {
  TrainOptions options;
  options.C = 1.0;
  options.threads = 3;
  options.cache_mb = 1.0;
  return options;
}

}  // namespace

TEST_CASE("one-vs-one SVM on the cpu backend agrees with libsvm's own RBF SVM") {
  const FeatureSet train = training_set();
  const FeatureSet test = test_set();
  TrainOptions options = small_options();
  std::vector<int> progress;
  options.progress = [&](int done, int total) {
    CHECK(total == 6);
    progress.push_back(done);
  };
  TrainStats stats;
  const OvoModel model = train_ovo(test::cpu_context(), train, options, &stats);

  CHECK(model.classes == std::vector<int32_t>{10, 20, 30, 40});
  CHECK(model.pairs.size() == 6);
  CHECK(stats.pairs == 6);
  CHECK(stats.support_vectors == model.sv_count);
  CHECK(model.sv_count > 0);
  CHECK(model.sv_count < train.rows);
  CHECK(model.gamma ==
        doctest::Approx(1.0 / kOvoDim).epsilon(1e-3));  // "scale" on standardised data
  REQUIRE_FALSE(progress.empty());
  CHECK(progress.back() == 6);

  const Prediction on_train = predict(test::cpu_context(), model, train);
  CHECK(test::agreement(on_train.labels, train.labels) >= 0.95);

  PredictOptions predict_options;
  predict_options.tile_rows = 37;  // several tiles, the last one partial
  predict_options.sv_tile_rows = 50;
  const Prediction ours = predict(test::cpu_context(), model, test, predict_options);
  const std::vector<int32_t> reference = direct_libsvm(train, test, model);
  MESSAGE("support vectors: " << model.sv_count << ", agreement with libsvm: "
                              << test::agreement(ours.labels, reference)
                              << ", test accuracy: " << test::agreement(ours.labels, test.labels));
  CHECK(test::agreement(ours.labels, reference) >= 0.98);
  CHECK(test::agreement(ours.labels, test.labels) >= 0.7);

  // Tiling does not change the answer.
  const Prediction untiled = predict(test::cpu_context(), model, test);
  CHECK(untiled.labels == ours.labels);
}

TEST_CASE("a memory cap that fits one pair at a time still trains the same model") {
  // Largest pairs first: the (60 + 45)-row workspace is reused by every
  // smaller pair, so reuse of a bigger workspace is exercised too.
  const FeatureSet train = unbalanced_training_set();
  TrainOptions options = small_options();
  SUBCASE("smo") { options.solver = SolverKind::Smo; }
  SUBCASE("libsvm") { options.solver = SolverKind::Libsvm; }
  SolverSettings settings;
  settings.solver = options.solver;
  settings.cache_mb = options.cache_mb;
  const uint64_t one_pair =
      PairWorkspace::bytes_for(105, options.solver) + pair_solver_bytes(105, settings);
  // libsvm: no second pair fits next to the largest workspace (its 1 MB
  // cache per pair sees to that at 1.5 pairs). SMO: the least the trainer
  // accepts, every class's diagonal block and the largest pair; a second pair
  // fits only once a class's last pair has freed its diagonal block.
  const uint64_t diagonals = (60 * 60 + 45 * 45 + 30 * 30 + 20 * 20) * sizeof(float);
  const bool smo = options.solver == SolverKind::Smo;
  options.memory_cap_bytes = smo ? diagonals + one_pair : one_pair + one_pair / 2;
  TrainStats capped_stats;
  const OvoModel capped = train_ovo(test::cpu_context(), train, options, &capped_stats);
  // (SMO: how many pairs overlap once blocks are freed depends on timing.)
  if (!smo) CHECK(capped_stats.peak_pairs_in_flight == 1);
  CHECK(capped_stats.peak_reserved_bytes <= options.memory_cap_bytes);
  if (smo) {
    CHECK(capped_stats.peak_reserved_bytes > diagonals);
    options.memory_cap_bytes = diagonals + one_pair - 1;
    CHECK_THROWS_WITH_AS(train_ovo(test::cpu_context(), train, options),
                         doctest::Contains("next to the classes' diagonal kernel blocks"),
                         SvmError);
  }

  options.memory_cap_bytes = 0;
  TrainStats free_stats;
  const OvoModel free = train_ovo(test::cpu_context(), train, options, &free_stats);
  CHECK(free_stats.peak_pairs_in_flight >= 1);
  CHECK(capped.sv_count == free.sv_count);
  CHECK(capped.sv_rows == free.sv_rows);
  for (size_t p = 0; p < capped.pairs.size(); ++p) {
    CHECK(capped.pairs[p].support == free.pairs[p].support);
    CHECK(capped.pairs[p].coef == free.pairs[p].coef);
    CHECK(capped.pairs[p].rho == free.pairs[p].rho);
  }
  const FeatureSet test = test_set();
  const std::vector<int32_t> reference = direct_libsvm(train, test, capped);
  CHECK(test::agreement(predict(test::cpu_context(), capped, test).labels, reference) >= 0.98);

  options.memory_cap_bytes = one_pair / 2;
  CHECK_THROWS_WITH_AS(train_ovo(test::cpu_context(), train, options),
                       doctest::Contains("is too small: the largest class pair (105 rows)"),
                       SvmError);
}

TEST_CASE("linear kernel, no standardisation, fixed gamma") {
  const FeatureSet train = training_set();
  TrainOptions options = small_options();
  options.kernel = KernelKind::Linear;
  options.standardize = false;
  options.gamma = GammaPolicy::parse("0.5");
  const OvoModel model = train_ovo(test::cpu_context(), train, options);
  CHECK(model.standardizer.empty());
  CHECK(model.kernel == KernelKind::Linear);
  CHECK(model.gamma == 0.5f);
  const Prediction on_train = predict(test::cpu_context(), model, train);
  CHECK(test::agreement(on_train.labels, train.labels) >= 0.9);
}

TEST_CASE(
    "prediction rejects features of another dimension; voting breaks ties to the lowest class") {
  const FeatureSet train = training_set();
  const OvoModel model = train_ovo(test::cpu_context(), train, small_options());
  FeatureSet wrong;
  wrong.rows = 1;
  wrong.dim = kOvoDim + 1;
  wrong.values.resize(kOvoDim + 1);
  CHECK_THROWS_WITH(predict(test::cpu_context(), model, wrong),
                    "SVM prediction input has dimension 17 but the model expects 16");

  // Pairs (0,1) (0,2) (0,3) (1,2) (1,3) (2,3) won by 0, 2, 0, 1, 1, 2:
  // classes 0, 1 and 2 have two votes each.
  const float decisions[6] = {1, -1, 1, 1, 1, 1};
  std::vector<int> votes;
  CHECK(vote(model, decisions, votes) == 10);
  CHECK(votes == std::vector<int>{2, 2, 2, 0});
  const float zero_votes_second[6] = {0, 0, 0, 0, 0, 0};  // dec == 0 counts for the second class
  CHECK(vote(model, zero_votes_second, votes) == 40);
}
