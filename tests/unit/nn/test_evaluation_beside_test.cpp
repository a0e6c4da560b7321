// The test error measured beside the next epoch, on a second context: the
// same values, checkpoints and weights as measured between epochs in the
// training context, every epoch's line printed once and in order, with
// per-epoch checkpoints and without; the choice Auto makes.
#include "nn/test_evaluation_beside.hpp"

#include <doctest/doctest.h>

#include <sstream>
#include <string>

#include "backends.hpp"
#include "io/scratch_dir.hpp"
#include "nn/checkpoint.hpp"
#include "nn/trainer.hpp"

namespace cae::nn {
namespace {

struct Run {
  TrainOutcome outcome;
  Checkpoint saved;  // the checkpoint file after the run
  std::string log;
};

Run train(TestEvaluationPlacement placement, bool each_epoch, bool contrast,
          const test::ScratchDir& dir, const std::string& name) {
  auto contexts = test::make_contexts(test::cpu_table(), 1);
  TrainOptions options;
  options.epochs = 3;
  options.batch_size = 4;
  options.seed = 5;
  options.eval_batch_size = 3;                  // 5 test images: a short last batch
  options.input.contrast_normalize = contrast;  // test images transformed beforehand, or not
  options.test_evaluation = placement;
  options.checkpoint_each_epoch = each_epoch;
  options.checkpoint_path = dir.file(name);
  Checkpoint start;
  start.parameters = Parameters::he_normal(Network::seed(), 5);
  std::ostringstream log;
  Run run;
  run.outcome = train_autoencoder(test::pointers(contexts), test::small_image_set(6, 9),
                                  test::small_image_set(5, 10), options, start, log);
  run.saved = load_checkpoint(options.checkpoint_path);
  run.log = log.str();
  return run;
}

TEST_CASE("the test error measured beside the next epoch equals the one measured between epochs") {
  const test::ScratchDir dir;
  for (const bool each_epoch : {true, false})
    for (const bool contrast : {true, false}) {
      CAPTURE(each_epoch);
      CAPTURE(contrast);
      const Run between =
          train(TestEvaluationPlacement::Between, each_epoch, contrast, dir, "between");
      const Run beside =
          train(TestEvaluationPlacement::Beside, each_epoch, contrast, dir, "beside");
      REQUIRE(between.outcome.epochs.size() == 3);
      REQUIRE(beside.outcome.epochs.size() == 3);
      for (size_t e = 0; e < 3; ++e) {
        CAPTURE(e);
        CHECK(between.outcome.epochs[e].epoch == int(e) + 1);
        CHECK(beside.outcome.epochs[e].epoch == int(e) + 1);
        CHECK(between.outcome.epochs[e].test_mse > 0.0);
        CHECK(beside.outcome.epochs[e].test_mse == between.outcome.epochs[e].test_mse);
        CHECK(beside.outcome.epochs[e].train_loss == between.outcome.epochs[e].train_loss);
      }
      // The epochs' errors differ: a copy of stale parameters would show.
      CHECK(between.outcome.epochs[0].test_mse != between.outcome.epochs[2].test_mse);
      for (const Checkpoint* c : {&beside.outcome.final_state, &beside.saved}) {
        CHECK(c->parameters.flatten() == between.saved.parameters.flatten());
        CHECK(c->state.test_mses == between.saved.state.test_mses);
        CHECK(c->state.train_losses == between.saved.state.train_losses);
        CHECK(c->state.epochs_done == 3);
        CHECK(c->state.optimizer_steps == between.saved.state.optimizer_steps);
      }
      CHECK(between.saved.state.test_mses.size() == 3);
      CHECK(between.log.find("beside the next epoch") == std::string::npos);
      CHECK(beside.log.find("beside the next epoch") != std::string::npos);
      // Each epoch's line once, in order.
      size_t from = 0;
      for (int e = 1; e <= 3; ++e) {
        const std::string line = "epoch " + std::to_string(e) + "/3  train loss";
        const size_t at = beside.log.find(line, from);
        REQUIRE(at != std::string::npos);
        CHECK(beside.log.find(line, at + 1) == std::string::npos);
        from = at;
      }
    }
}

TEST_CASE("auto measures beside on one device with memory of its own, between otherwise") {
  auto contexts = test::make_contexts(test::cpu_table(), 1);
  const Context& cpu = *contexts.front();
  REQUIRE_FALSE(cpu.has_host_memory());  // the cpu backend's tensors are host memory
  CHECK_FALSE(evaluates_beside(TestEvaluationPlacement::Auto, cpu, 1, false));
  CHECK(evaluates_beside(TestEvaluationPlacement::Beside, cpu, 1, false));
  CHECK_FALSE(evaluates_beside(TestEvaluationPlacement::Between, cpu, 1, false));
}

TEST_CASE("a result is asked for only after a start, and one measurement runs at a time") {
  auto contexts = test::make_contexts(test::cpu_table(), 1);
  const ImageSet images = test::small_image_set(4, 3);
  const TransformedImages none;
  TestEvaluationBeside beside(*contexts.front(), Sparsity(), Execution::Auto, images, 2, none);
  CHECK_FALSE(beside.running());
  CHECK_THROWS_AS(beside.result(), std::logic_error);
  const Parameters parameters = Parameters::he_normal(Network::seed(), 5);
  beside.start(parameters);
  CHECK(beside.running());
  CHECK_THROWS_AS(beside.start(parameters), std::logic_error);
  Autoencoder model(*contexts.front(), parameters);
  const double expected = reconstruction_mse(*contexts.front(), model, images, 2);
  CHECK(beside.result() == expected);
  CHECK_FALSE(beside.running());
}

}  // namespace
}  // namespace cae::nn
