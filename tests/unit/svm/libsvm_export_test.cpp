#include "svm/libsvm_export.hpp"

#include <doctest/doctest.h>
#include <svm.h>

#include <memory>

#include "io/scratch_dir.hpp"
#include "svm/ovo_trainer.hpp"
#include "svm/predictor.hpp"
#include "svm/svm_error.hpp"
#include "test_data.hpp"

using namespace cae::svm;

namespace {

struct ModelFree {
  void operator()(svm_model* model) const { svm_free_and_destroy_model(&model); }
};

void check_export_matches(const TrainOptions& options) {
  const FeatureSet train = test::clustered(4, 50, 12, 1.2, 3, 0);
  const FeatureSet test = test::clustered(4, 30, 12, 1.2, 3, 1);
  const OvoModel model = train_ovo(test::cpu_context(), train, options);

  cae::test::ScratchDir dir;
  const std::string path = dir.file("model.libsvm");
  export_libsvm_model(model, path);
  CHECK(dir.listing() == "model.libsvm");
  std::unique_ptr<svm_model, ModelFree> loaded(svm_load_model(path.c_str()));
  REQUIRE(loaded != nullptr);
  CHECK(svm_get_nr_class(loaded.get()) == 4);
  CHECK(svm_get_nr_sv(loaded.get()) == model.sv_count);

  PredictOptions predict_options;
  predict_options.keep_decision_values = true;
  const Prediction ours = predict(test::cpu_context(), model, test, predict_options);
  const test::LibsvmRows queries = test::to_libsvm(test, model.standardizer);
  std::vector<int32_t> theirs;
  std::vector<double> decisions(6);
  for (size_t i = 0; i < queries.pointers.size(); ++i) {
    theirs.push_back(static_cast<int32_t>(
        svm_predict_values(loaded.get(), queries.pointers[i], decisions.data())));
    for (size_t p = 0; p < 6; ++p) {
      CHECK(ours.decision_values[i * 6 + p] == doctest::Approx(decisions[p]).epsilon(1e-3));
    }
  }
  CHECK(theirs == ours.labels);
}

}  // namespace

TEST_CASE("the exported libsvm model predicts what cae's predictor predicts (rbf)") {
  TrainOptions options;
  options.threads = 2;
  options.cache_mb = 1.0;
  check_export_matches(options);
}

TEST_CASE("the exported libsvm model predicts what cae's predictor predicts (linear)") {
  TrainOptions options;
  options.threads = 2;
  options.cache_mb = 1.0;
  options.kernel = KernelKind::Linear;
  check_export_matches(options);
}

TEST_CASE("export to a folder that does not exist fails with one line") {
  TrainOptions options;
  options.threads = 1;
  options.cache_mb = 1.0;
  const OvoModel model =
      train_ovo(test::cpu_context(), test::clustered(2, 10, 4, 3.0, 5, 0), options);
  CHECK_THROWS_AS(export_libsvm_model(model, "/nonexistent-dir/model.libsvm"), SvmError);
}
