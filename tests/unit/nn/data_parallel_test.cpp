// Data-parallel training and extraction over several cpu contexts: the
// result does not depend on the number of devices (within float rounding),
// reruns are bit-identical, and both exchange paths (the backend's
// collectives, the host's) give the same weights.
#include <doctest/doctest.h>

#include <cmath>
#include <sstream>

#include "backends.hpp"
#include "nn/features.hpp"
#include "nn/model_replicas.hpp"
#include "nn/trainer.hpp"
#include "plugin/extraction_streams.hpp"
#include "relative_difference.hpp"

namespace cae::nn {
namespace {

struct Run {
  std::vector<double> losses;
  std::vector<float> weights;  // every parameter, flattened
};

Run train(const cae_backend_table& table, int devices, int batch, size_t images,
          bool force_host = false) {
  auto contexts = test::make_contexts(table, devices);
  const ImageSet train_set = test::small_image_set(images, 7);
  const ImageSet test_set = test::small_image_set(8, 8);
  TrainOptions options;
  options.epochs = 2;
  options.batch_size = batch;
  options.seed = 3;
  options.eval_batch_size = 8;
  options.force_host_exchange = force_host;
  Checkpoint start;
  start.parameters = Parameters::he_normal(cae::nn::Network::seed(), 11);
  std::ostringstream log;
  TrainOutcome outcome =
      train_autoencoder(test::pointers(contexts), train_set, test_set, options, start, log);
  Run run;
  for (const EpochRecord& e : outcome.epochs) run.losses.push_back(e.train_loss);
  run.weights = outcome.final_state.parameters.flatten();
  return run;
}

using test::max_relative_difference;

// 36 images in batches of 8: four full batches and a last batch of 4, which
// two devices split evenly and three cannot (then two of them take 2 each).
constexpr size_t kImages = 36;

TEST_CASE("two and three devices follow the one-device loss curve at the same global batch") {
  const Run one = train(test::cpu_table(), 1, 12, kImages);
  const Run two = train(test::cpu_table(), 2, 12, kImages);
  const Run three = train(test::cpu_table(), 3, 12, kImages);
  REQUIRE(one.losses.size() == 2);
  CHECK(one.losses[1] < one.losses[0]);  // it learns
  for (const Run* other : {&two, &three}) {
    for (size_t e = 0; e < one.losses.size(); ++e) {
      CHECK(other->losses[e] == doctest::Approx(one.losses[e]).epsilon(1e-4));
    }
    // Adam normalises tiny gradients, so weights drift a little more than losses.
    CHECK(max_relative_difference(one.weights, other->weights) < 1e-3);
  }
}

TEST_CASE("data-parallel reruns are bit-identical on a deterministic backend") {
  const Run first = train(test::cpu_table(), 2, 8, kImages);
  const Run second = train(test::cpu_table(), 2, 8, kImages);
  CHECK(first.weights == second.weights);
  CHECK(first.losses == second.losses);
}

TEST_CASE("the backend's collectives and the host exchange train the same weights") {
  const Run collectives = train(test::cpu_table(), 2, 8, kImages, false);
  const Run host = train(test::cpu_table(), 2, 8, kImages, true);
  CHECK(collectives.weights == host.weights);
}

// Steps of 2 x 4 images on two cpu contexts, Adam and SGD with momentum:
// the weights after `steps` steps, and whether each step exchanged inside
// its graph.
struct Steps {
  std::vector<float> weights;
  std::vector<bool> in_graph;
};
Steps replica_steps(Execution execution, const std::string& optimizer, int steps) {
  auto contexts = test::make_contexts(test::cpu_table(), 2);
  OptimizerSettings settings;
  settings.kind = optimizer;
  settings.momentum = optimizer == "sgd" ? 0.9f : 0.0f;
  settings.learning_rate = optimizer == "sgd" ? 0.05f : 1e-3f;
  const Parameters start = Parameters::he_normal(cae::nn::Network::seed(), 5);
  ModelReplicas replicas(test::pointers(contexts), start, settings, 8, false, nullptr, execution);
  const ImageSet images = test::small_image_set(8 * size_t(steps), 9);
  std::vector<float> batch(8 * images.image_bytes());
  Steps out;
  for (int s = 0; s < steps; ++s) {
    for (size_t i = 0; i < batch.size(); ++i) {
      batch[i] = float(images.pixels[size_t(s) * batch.size() + i]) / 255.0f;
    }
    replicas.train_step(batch.data(), 8);
    out.in_graph.push_back(replicas.last_step_exchanged_in_graph());
  }
  out.weights = replicas.primary_model().download_parameters().flatten();
  return out;
}

TEST_CASE("the gradient exchange inside the step's graph trains the op path's weights, bit for bit") {
  for (const char* optimizer : {"adam", "sgd"}) {
    CAPTURE(optimizer);
    const Steps in_graph = replica_steps(Execution::Auto, optimizer, 3);
    const Steps op_path = replica_steps(Execution::Ops, optimizer, 3);
    // The cpu backend runs the exchange as graph nodes (ABI 1.6): every step did.
    CHECK(in_graph.in_graph == std::vector<bool>{true, true, true});
    CHECK(op_path.in_graph == std::vector<bool>{false, false, false});
    REQUIRE(in_graph.weights.size() == op_path.weights.size());
    CHECK(in_graph.weights == op_path.weights);
    CHECK(in_graph.weights != Parameters::he_normal(cae::nn::Network::seed(), 5).flatten());
  }
}

TEST_CASE("an ABI 1.0 table trains on two devices through the host exchange") {
  const Run as_1_0 = train(test::cpu_table_as_1_0(), 2, 8, kImages);
  const Run as_1_1 = train(test::cpu_table(), 2, 8, kImages);
  CHECK(as_1_0.weights == as_1_1.weights);
}

TEST_CASE("a global batch that the devices cannot share equally is refused") {
  CHECK_THROWS_WITH_AS(train(test::cpu_table(), 3, 8, kImages),
                       doctest::Contains("cannot be split into 3 equal shards"),
                       std::invalid_argument);
}

TEST_CASE("features split by rows over two devices equal one device's") {
  const ImageSet images = test::small_image_set(13, 5);
  const Parameters weights = Parameters::he_normal(cae::nn::Network::seed(), 2);
  auto one = test::make_contexts(test::cpu_table(), 1);
  auto two = test::make_contexts(test::cpu_table(), 2);
  for (const char* name : {"latent", "pyramid-flip"}) {
    CAPTURE(name);
    const FeatureRecipe& recipe = feature_recipe(name);
    const auto a = extract_features(test::pointers(one), weights, recipe, images, 4, nullptr, "");
    const auto b = extract_features(test::pointers(two), weights, recipe, images, 4, nullptr, "");
    REQUIRE(a.size() == 13 * size_t(recipe.dim(weights.network)));
    CHECK(max_relative_difference(a, b) < 1e-5);
  }
}

TEST_CASE("features over several contexts per device (streams) equal one context's") {
  const ImageSet images = test::small_image_set(13, 5);
  const Parameters weights = Parameters::he_normal(cae::nn::Network::seed(), 2);
  auto one = test::make_contexts(test::cpu_table(), 1);
  const FeatureRecipe& recipe = feature_recipe("latent");
  const auto a = extract_features(test::pointers(one), weights, recipe, images, 4, nullptr, "", 1);
  // Three contexts on the one device: rows [0,4), [4,8), [8,13), each on its own thread.
  const auto b = extract_features(test::pointers(one), weights, recipe, images, 4, nullptr, "", 3);
  REQUIRE(b.size() == a.size());
  CHECK(max_relative_difference(a, b) < 1e-5);
  // Auto: the cpu backend has no page-locked memory, so one context per device.
  CHECK(extraction_streams(*one[0], 0) == 1);
  CHECK(extraction_streams(*one[0], 3) == 3);
}

TEST_CASE("one extractor encodes several sets, into storage given or its own, as the function does") {
  const ImageSet train = test::small_image_set(13, 5);
  const ImageSet test_images = test::small_image_set(7, 6);
  const Parameters weights = Parameters::he_normal(cae::nn::Network::seed(), 2);
  auto one = test::make_contexts(test::cpu_table(), 1);
  const FeatureRecipe& recipe = feature_recipe("pyramid-flip");
  const size_t dim = size_t(recipe.dim(weights.network));
  const FeatureExtractor extractor(test::pointers(one), weights, 2);
  // Storage of the rows' size is filled in place (stale values overwritten);
  // storage of another size is replaced by memory of the right size.
  std::vector<float> storage(13 * dim, -7.0f);
  const float* given = storage.data();
  const auto a = extractor.extract(recipe, train, 4, nullptr, "", nullptr, RowsTo::Rank0,
                                   std::move(storage));
  CHECK(a.data() == given);
  const auto b = extractor.extract(recipe, test_images, 4, nullptr, "", nullptr, RowsTo::Rank0,
                                   std::vector<float>(3, 1.0f));
  REQUIRE(b.size() == 7 * dim);
  CHECK(max_relative_difference(
            a, extract_features(test::pointers(one), weights, recipe, train, 4, nullptr, "", 2)) <
        1e-6);
  CHECK(max_relative_difference(b, extract_features(test::pointers(one), weights, recipe,
                                                    test_images, 4, nullptr, "", 2)) < 1e-6);
}

}  // namespace
}  // namespace cae::nn
