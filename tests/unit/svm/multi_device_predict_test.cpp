// Prediction split by rows over several cpu contexts (logical devices) gives
// one device's labels and decision values (to rounding), with a tile size that makes each
// device run several tiles and a row count no device count divides.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <memory>

#include "svm/ovo_trainer.hpp"
#include "svm/predictor.hpp"
#include "test_data.hpp"

namespace cae::svm {
namespace {

TEST_CASE("prediction split by rows over 1, 2 and 3 devices agrees") {
  const FeatureSet train = test::clustered(3, 40, 10, 1.2, 5, 0);
  const FeatureSet test = test::clustered(3, 31, 10, 1.2, 5, 1);  // 93 rows
  const OvoModel model = train_ovo(test::cpu_context(), train, TrainOptions{});
  const cae_backend_table& table = test::cpu_context().table();
  std::vector<std::unique_ptr<Context>> owned;
  for (int d = 0; d < 3; ++d) owned.push_back(std::make_unique<Context>(table, d, 1));
  PredictOptions options;
  options.keep_decision_values = true;
  options.tile_rows = 7;
  const Prediction one = predict({owned[0].get()}, model, test, options);
  REQUIRE(one.labels.size() == 93);
  for (size_t devices : {2, 3}) {
    CAPTURE(devices);
    std::vector<Context*> contexts;
    for (size_t d = 0; d < devices; ++d) contexts.push_back(owned[d].get());
    const Prediction split = predict(contexts, model, test, options);
    CHECK(split.labels == one.labels);
    // Tiles start at other rows, so the backend's GEMM may block them
    // differently: the last bits of a kernel value may change, nothing more.
    REQUIRE(split.decision_values.size() == one.decision_values.size());
    double worst = 0;
    for (size_t i = 0; i < one.decision_values.size(); ++i) {
      worst = std::max(worst, double(std::fabs(split.decision_values[i] - one.decision_values[i])));
    }
    CHECK(worst < 1e-5);
  }
}

}  // namespace
}  // namespace cae::svm
