// Training with augmentation and input noise on the cpu backend: a run is a
// function of its seed (reruns are bit-identical), and each option changes
// what the model learns.
#include <doctest/doctest.h>

#include <sstream>

#include "backends.hpp"
#include "nn/trainer.hpp"

namespace cae::nn {
namespace {

// The cpu backend without ABI 1.12's add_normal_noise: the host draws the noise.
const cae_backend_table& cpu_table_without_noise() {
  static const cae_backend_table table = [] {
    cae_backend_table copy = test::cpu_table();
    copy.add_normal_noise = nullptr;
    return copy;
  }();
  return table;
}

std::vector<float> trained_weights(Augmentation augment, float noise, uint64_t seed,
                                   const cae_backend_table& backend = test::cpu_table(),
                                   int devices = 1) {
  auto contexts = test::make_contexts(backend, devices);
  TrainOptions options;
  options.epochs = 1;
  options.batch_size = 4;
  options.seed = seed;
  options.eval_batch_size = 4;
  options.augment = augment;
  options.input_noise = noise;
  Checkpoint start;
  start.parameters = Parameters::he_normal(cae::nn::Network::seed(), 5);
  std::ostringstream log;
  TrainOutcome outcome = train_autoencoder(test::pointers(contexts), test::small_image_set(6, 9),
                                           test::small_image_set(2, 10), options, start, log);
  CHECK(outcome.final_state.state.augment == augmentation_name(augment));
  CHECK(outcome.final_state.state.input_noise == doctest::Approx(noise));
  return outcome.final_state.parameters.flatten();
}

TEST_CASE("augmented and denoising runs repeat exactly for a seed and differ from plain ones") {
  const std::vector<float> plain = trained_weights(Augmentation::None, 0, 3);
  const std::vector<float> crop = trained_weights(Augmentation::FlipCrop, 0, 3);
  CHECK(crop == trained_weights(Augmentation::FlipCrop, 0, 3));
  CHECK(crop != plain);
  const std::vector<float> noisy = trained_weights(Augmentation::None, 0.1f, 3);
  CHECK(noisy == trained_weights(Augmentation::None, 0.1f, 3));
  CHECK(noisy != plain);
}

TEST_CASE("input noise added by the backend trains the model the host's noise trains") {
  // The same draws either side (cae_normal_draw), on one device and on two
  // that each add their shard's values of the batch's stream.
  REQUIRE(CAE_TABLE_HAS(&test::cpu_table(), add_normal_noise));
  const std::vector<float> on_backend = trained_weights(Augmentation::None, 0.1f, 3);
  CHECK(on_backend == trained_weights(Augmentation::None, 0.1f, 3, cpu_table_without_noise()));
  const std::vector<float> two_devices =
      trained_weights(Augmentation::None, 0.1f, 3, test::cpu_table(), 2);
  CHECK(two_devices == trained_weights(Augmentation::None, 0.1f, 3, cpu_table_without_noise(), 2));
}

}  // namespace
}  // namespace cae::nn
