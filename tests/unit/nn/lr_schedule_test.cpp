// Learning-rate schedules: the rate of each step as documented, and a run
// with a decaying schedule repeats exactly and differs from a constant one.
#include "nn/lr_schedule.hpp"

#include <doctest/doctest.h>

#include <sstream>
#include <stdexcept>

#include "backends.hpp"
#include "nn/trainer.hpp"

namespace cae::nn {
namespace {

std::vector<float> trained_weights(LrSchedule schedule, std::string* recorded) {
  auto contexts = test::make_contexts(test::cpu_table(), 1);
  TrainOptions options;
  options.epochs = 2;
  options.batch_size = 2;
  options.eval_batch_size = 4;
  options.optimizer.learning_rate = 1e-2f;
  options.lr_schedule = schedule;
  Checkpoint start;
  start.parameters = Parameters::he_normal(cae::nn::Network::seed(), 6);
  std::ostringstream log;
  TrainOutcome outcome = train_autoencoder(test::pointers(contexts), test::small_image_set(6, 4),
                                           test::small_image_set(2, 5), options, start, log);
  *recorded = outcome.final_state.state.lr_schedule;
  return outcome.final_state.parameters.flatten();
}

}  // namespace

TEST_CASE("constant keeps the base rate on every step") {
  for (int64_t step : {0, 1, 50, 99, 500}) {
    CHECK(scheduled_learning_rate(LrSchedule::Constant, 0.5f, step, 100) == 0.5f);
  }
}

TEST_CASE(
    "cosine starts at the base rate, halves at mid-run and falls towards 0 without reaching it") {
  CHECK(scheduled_learning_rate(LrSchedule::Cosine, 2.0f, 0, 100) == 2.0f);
  CHECK(scheduled_learning_rate(LrSchedule::Cosine, 2.0f, 50, 100) == doctest::Approx(1.0f));
  const float last = scheduled_learning_rate(LrSchedule::Cosine, 2.0f, 99, 100);
  CHECK(last > 0.0f);
  CHECK(last < 2.0f * 1e-3f);
  float previous = 3.0f;
  for (int64_t step = 0; step < 100; ++step) {
    const float rate = scheduled_learning_rate(LrSchedule::Cosine, 2.0f, step, 100);
    CHECK(rate < previous);
    previous = rate;
  }
  // Past the end (a run extended by --resume --epochs) keeps the last rate.
  CHECK(scheduled_learning_rate(LrSchedule::Cosine, 2.0f, 150, 100) == last);
}

TEST_CASE("step divides by 10 at half the run and by 100 at three quarters") {
  CHECK(scheduled_learning_rate(LrSchedule::Step, 1.0f, 0, 100) == 1.0f);
  CHECK(scheduled_learning_rate(LrSchedule::Step, 1.0f, 49, 100) == 1.0f);
  CHECK(scheduled_learning_rate(LrSchedule::Step, 1.0f, 50, 100) == doctest::Approx(0.1f));
  CHECK(scheduled_learning_rate(LrSchedule::Step, 1.0f, 74, 100) == doctest::Approx(0.1f));
  CHECK(scheduled_learning_rate(LrSchedule::Step, 1.0f, 75, 100) == doctest::Approx(0.01f));
  CHECK(scheduled_learning_rate(LrSchedule::Step, 1.0f, 99, 100) == doctest::Approx(0.01f));
}

TEST_CASE("schedule names parse and print, anything else is refused") {
  for (LrSchedule s : {LrSchedule::Constant, LrSchedule::Cosine, LrSchedule::Step}) {
    CHECK(parse_lr_schedule(lr_schedule_name(s)) == s);
  }
  CHECK_THROWS_AS(parse_lr_schedule("linear"), std::invalid_argument);
  CHECK_THROWS_AS(parse_lr_schedule(""), std::invalid_argument);
}

TEST_CASE("a cosine run repeats exactly, differs from a constant one and is recorded") {
  std::string recorded;
  const std::vector<float> constant = trained_weights(LrSchedule::Constant, &recorded);
  CHECK(recorded == "constant");
  const std::vector<float> cosine = trained_weights(LrSchedule::Cosine, &recorded);
  CHECK(recorded == "cosine");
  CHECK(cosine == trained_weights(LrSchedule::Cosine, &recorded));
  CHECK(cosine != constant);
}

}  // namespace cae::nn
