// The feature ingredients on the model side: the latent's L1 gradient (two
// existing ABI ops) against a direct computation, the spatial winner-take-all
// (existing pool ops) against its definition, training with each, the
// soft-threshold encoder, and a checkpoint that carries its input transform
// to extraction.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <sstream>
#include <stdexcept>

#include "backends.hpp"
#include "data/augment.hpp"
#include "data/batcher.hpp"
#include "io/safetensors.hpp"
#include "io/scratch_dir.hpp"
#include "nn/checkpoint.hpp"
#include "nn/feature_recipe.hpp"
#include "nn/features.hpp"
#include "nn/latent_sparsity.hpp"
#include "nn/model_description.hpp"
#include "nn/trainer.hpp"
#include "nn/transformed_images.hpp"
#include "nn/weights_identity.hpp"

namespace cae::nn {
namespace {

// 8x8 RGB images of random pixels: 192 values each, so whitening is learned
// in milliseconds.
ImageSet tiny_images(size_t count, uint64_t seed) {
  ImageSet set;
  set.side = 8;
  set.pixels.resize(count * set.image_bytes());
  std::mt19937_64 rng(seed);
  for (uint8_t& p : set.pixels) p = uint8_t(rng() % 256);
  for (size_t i = 0; i < count; ++i) set.labels.push_back(uint8_t(i % 10));
  return set;
}

Network tiny_network() { return Network(model_preset("seed"), 3, 8); }

}  // namespace

TEST_CASE("the latent's L1 gradient adds its coefficient exactly where the latent is positive") {
  auto contexts = test::make_contexts(test::cpu_table(), 1);
  Context& context = *contexts[0];
  const std::vector<int64_t> dims = {2, 3, 2, 2};
  const size_t n = 24;
  std::vector<float> latent(n), gradient(n);
  std::mt19937 rng(4);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  for (size_t i = 0; i < n; ++i) {
    latent[i] = i % 3 == 0 ? 0.0f : std::abs(normal(rng));  // post-ReLU: zeros and positives
    gradient[i] = normal(rng);
  }
  Tensor z = context.alloc(dims), dz = context.alloc(dims), minus_ones = context.alloc(dims),
         mask = context.alloc(dims);
  z.upload(latent);
  dz.upload(gradient);
  minus_ones.upload(std::vector<float>(n, -1.0f));
  const float coefficient = 0.375f;
  add_latent_l1_gradient(context, z, dz, minus_ones, mask, coefficient);
  const std::vector<float> got = dz.download();
  for (size_t i = 0; i < n; ++i) {
    CAPTURE(i);
    // d/dz of coefficient * |z| is coefficient for z > 0 and 0 (subgradient) at 0.
    const float want = gradient[i] + (latent[i] > 0.0f ? coefficient : 0.0f);
    CHECK(got[i] == doctest::Approx(want).epsilon(1e-6));
  }
}

TEST_CASE("--sparsity values and a sparse run that repeats exactly and differs from a plain one") {
  CHECK(parse_sparsity("none") == Sparsity{});
  CHECK(parse_sparsity("l1:0.5") == Sparsity{0.5f, false});
  CHECK(parse_sparsity("wta-spatial") == Sparsity{0.0f, true});
  CHECK(sparsity_name({0.1f, false}) == "l1:0.1");
  CHECK(sparsity_name({}) == "none");
  CHECK(sparsity_name({0.0f, true}) == "wta-spatial");
  for (const char* bad : {"l1:0", "l1:-1", "l1:nan", "l1:inf", "l1:", "l2:1", "l1:1e9", "wta",
                          "wta-spatial:1", "WTA-spatial"}) {
    CAPTURE(bad);
    CHECK_THROWS_AS(parse_sparsity(bad), std::invalid_argument);
  }
  auto train = [](Sparsity sparsity) {
    auto contexts = test::make_contexts(test::cpu_table(), 1);
    TrainOptions options;
    options.epochs = 1;
    options.batch_size = 4;
    options.eval_batch_size = 4;
    options.sparsity = sparsity;
    Checkpoint start;
    start.parameters = Parameters::he_normal(tiny_network(), 5);
    std::ostringstream log;
    TrainOutcome outcome = train_autoencoder(test::pointers(contexts), tiny_images(8, 1),
                                             tiny_images(2, 2), options, start, log);
    CHECK(outcome.final_state.state.sparsity == sparsity_name(sparsity));
    return outcome.final_state.parameters.flatten();
  };
  const std::vector<float> plain = train({});
  const std::vector<float> sparse = train({50.0f, false});
  CHECK(sparse == train({50.0f, false}));
  CHECK(sparse != plain);
  const std::vector<float> winners = train({0.0f, true});
  CHECK(winners == train({0.0f, true}));
  CHECK(winners != plain);
  CHECK(winners != sparse);
}

TEST_CASE("the spatial winner-take-all keeps each map's largest value at its place, and only its "
          "gradient") {
  auto contexts = test::make_contexts(test::cpu_table(), 1);
  Context& context = *contexts[0];
  std::mt19937 rng(8);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  for (const int64_t side : {1, 2, 4, 8}) {
    CAPTURE(side);
    const int64_t n = 2, c = 3, plane = side * side;
    const std::vector<int64_t> dims = {n, c, side, side};
    std::vector<float> latent(size_t(n * c * plane)), gradient(latent.size());
    for (size_t i = 0; i < latent.size(); ++i) {
      // Post-ReLU values with ties: zeros, and values rounded to a few levels.
      latent[i] = std::max(0.0f, std::round(normal(rng) * 2.0f) / 2.0f);
      gradient[i] = normal(rng);
    }
    std::fill(latent.begin(), latent.begin() + plane, 0.0f);  // a map of zeros: no winner
    Tensor z = context.alloc(dims), d = context.alloc(dims);
    z.upload(latent);
    d.upload(gradient);
    SpatialWinnerTakeAll winners(context, dims);
    winners.forward(z);
    const std::vector<float> code = winners.code().download();
    winners.backward(d);
    const std::vector<float> d_latent = d.download();
    for (int64_t map = 0; map < n * c; ++map) {
      CAPTURE(map);
      const float* values = latent.data() + map * plane;
      const float largest = *std::max_element(values, values + plane);
      int64_t kept = 0;
      for (int64_t p = 0; p < plane; ++p) {
        const size_t at = size_t(map * plane + p);
        if (code[at] != 0.0f) {
          ++kept;
          CHECK(code[at] == largest);
          CHECK(values[p] == largest);
        }
        // The gradient reaches the latent only where the code is positive.
        CHECK(d_latent[at] == (code[at] > 0.0f ? gradient[at] : 0.0f));
      }
      CHECK(kept == (largest > 0.0f ? 1 : 0));
    }
  }
  for (const int64_t side : {3, 6, 12}) {
    CAPTURE(side);
    CHECK_THROWS_AS(SpatialWinnerTakeAll(context, {1, 1, side, side}), std::invalid_argument);
  }
}

TEST_CASE("the soft threshold: max(0, f - alpha), recorded in the recipe's name") {
  std::vector<float> values = {-1.0f, 0.0f, 0.2f, 0.5f, 2.0f};
  soft_threshold(values.data(), values.size(), 0.5f);
  CHECK(values == std::vector<float>{0.0f, 0.0f, 0.0f, 0.0f, 1.5f});
  const FeatureRecipe thresholded = with_threshold(feature_recipe("pyramid-flip"), 0.25);
  CHECK(thresholded.name == "pyramid-flip+threshold:0.25");
  CHECK(thresholded.threshold == 0.25);
  CHECK(thresholded.flip_average);
  // The name reads back as the same recipe: provenance checks compare names.
  const FeatureRecipe read = feature_recipe(thresholded.name);
  CHECK(read.threshold == 0.25);
  CHECK(read.layout == thresholded.layout);
  CHECK(with_threshold(feature_recipe("latent"), 0.0).name == "latent");
  for (double bad : {-0.1, double(NAN), double(INFINITY), 2e6}) {
    CAPTURE(bad);
    CHECK_THROWS_AS(with_threshold(feature_recipe("latent"), bad), std::invalid_argument);
  }
  for (const char* bad : {"latent+threshold:", "latent+threshold:x", "latent+threshold:0",
                          "latent+threshold:-1", "latents+threshold:1"}) {
    CAPTURE(bad);
    CHECK_THROWS_AS(feature_recipe(bad), std::invalid_argument);
  }
  // Thresholded features are the plain ones, shifted and cut at 0.
  auto contexts = test::make_contexts(test::cpu_table(), 1);
  const Parameters parameters = Parameters::he_normal(tiny_network(), 3);
  const ImageSet images = tiny_images(5, 3);
  const std::vector<float> plain = extract_features(test::pointers(contexts), parameters,
                                                    feature_recipe("latent"), images, 2, nullptr, "");
  const std::vector<float> cut = extract_features(
      test::pointers(contexts), parameters, with_threshold(feature_recipe("latent"), 0.01), images,
      2, nullptr, "");
  REQUIRE(plain.size() == cut.size());
  for (size_t i = 0; i < plain.size(); ++i) CHECK(cut[i] == std::max(0.0f, plain[i] - 0.01f));
}

TEST_CASE("a checkpoint carries its input transform to extraction; one without stays format 1") {
  test::ScratchDir dir;
  auto contexts = test::make_contexts(test::cpu_table(), 1);
  const ImageSet train = tiny_images(400, 6);
  const ImageSet test_images = tiny_images(6, 7);
  InputTransformSpec spec = parse_whitening("zca:0.1");
  spec.contrast_normalize = true;
  Checkpoint plain;
  plain.parameters = Parameters::he_normal(tiny_network(), 8);
  Checkpoint whitened = plain;
  whitened.parameters.input = std::make_shared<const InputTransform>(learn_input_transform(train, spec));

  save_checkpoint(dir.file("plain.safetensors"), plain);
  save_checkpoint(dir.file("whitened.safetensors"), whitened);
  CHECK(read_safetensors(dir.file("plain.safetensors")).metadata.at("format") == "cae-checkpoint-1");
  CHECK(read_safetensors(dir.file("plain.safetensors")).tensors.size() == plain.parameters.tensors.size());
  CHECK(read_safetensors(dir.file("whitened.safetensors")).metadata.at("format") == "cae-checkpoint-2");

  const Checkpoint loaded = load_checkpoint(dir.file("whitened.safetensors"));
  REQUIRE(loaded.parameters.input);
  CHECK(loaded.parameters.input->spec == spec);
  CHECK(loaded.parameters.input->matrix == whitened.parameters.input->matrix);
  CHECK(!load_checkpoint(dir.file("plain.safetensors")).parameters.input);
  CHECK(weights_identity(loaded.parameters) == weights_identity(whitened.parameters));
  CHECK(weights_identity(loaded.parameters) != weights_identity(plain.parameters));

  const FeatureRecipe& latent = feature_recipe("latent");
  auto features = [&](const Parameters& parameters) {
    return extract_features(test::pointers(contexts), parameters, latent, test_images, 4, nullptr, "");
  };
  CHECK(features(loaded.parameters) == features(whitened.parameters));
  CHECK(features(loaded.parameters) != features(plain.parameters));
}

TEST_CASE("the set transformed once gives the batches the per-batch order gives, flips included") {
  const ImageSet images = tiny_images(40, 13);
  InputTransformSpec spec = parse_whitening("zca:0.1");
  spec.contrast_normalize = true;
  const InputTransform transform = learn_input_transform(images, spec);
  const TransformedImages cached(images, &transform, true);
  REQUIRE(!cached.empty());
  const std::vector<size_t> indices = {5, 0, 39, 12, 12, 7, 33, 21, 2, 18, 26, 30, 9, 1, 15, 38};
  const BatchAugmenter augmenter(Augmentation::Flip, 7);
  const std::vector<bool> flips = augmenter.flips(indices.size(), 2, 3);
  CHECK(std::count(flips.begin(), flips.end(), true) > 0);
  CHECK(std::count(flips.begin(), flips.end(), false) > 0);
  const size_t d = images.image_bytes();
  std::vector<float> from_cache(indices.size() * d), per_batch(indices.size() * d);
  cached.fill(indices, flips, from_cache.data());
  // The per-batch order: fill, augment (the same draws), transform.
  fill_batch(images, indices, per_batch.data());
  augmenter.apply(per_batch.data(), indices.size(), 3, 8, 2, 3);
  transform.apply(per_batch.data(), indices.size());
  double worst = 0;
  for (size_t i = 0; i < per_batch.size(); ++i) {
    worst = std::max(worst, double(std::abs(from_cache[i] - per_batch[i])));
  }
  CHECK(worst < 1e-4);
  // Shifts cannot be taken from a cache; a set without a transform has none.
  CHECK_THROWS_AS(BatchAugmenter(Augmentation::FlipCrop, 7).flips(4, 0, 0), std::logic_error);
  CHECK(TransformedImages(images, nullptr, true).empty());
  InputTransform none;
  none.dim = d;
  CHECK(TransformedImages(images, &none, true).empty());
  // Contrast normalisation alone is kept too, and per image it is the same
  // arithmetic in the same order as per batch: equal to the last bit.
  InputTransform contrast_only;
  contrast_only.spec.contrast_normalize = true;
  contrast_only.dim = d;
  const TransformedImages contrast_cached(images, &contrast_only, true);
  REQUIRE(!contrast_cached.empty());
  contrast_cached.fill(indices, flips, from_cache.data());
  fill_batch(images, indices, per_batch.data());
  augmenter.apply(per_batch.data(), indices.size(), 3, 8, 2, 3);
  contrast_only.apply(per_batch.data(), indices.size());
  CHECK(from_cache == per_batch);
}

}  // namespace cae::nn
