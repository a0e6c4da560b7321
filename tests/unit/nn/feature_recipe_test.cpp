// Feature recipes on the cpu backend: their dimensions, the "latent" recipe
// equal to the encoder's latent as `cae extract` always wrote it, pooled taps
// equal to the same max-pools computed on the host from the encoder's maps,
// and flip averaging equal to the mean of the image's and the mirror's features.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

#include "backends.hpp"
#include "data/batcher.hpp"
#include "nn/features.hpp"

namespace cae::nn {
namespace {

constexpr size_t kImages = 5;

struct Fixture {
  std::vector<std::unique_ptr<Context>> contexts = test::make_contexts(test::cpu_table(), 1);
  Context& context = *contexts[0];
  ImageSet images = test::small_image_set(kImages, 21);
  Autoencoder model{context, Parameters::he_normal(4)};

  Tensor upload_all() {
    std::vector<size_t> indices(images.size());
    for (size_t i = 0; i < indices.size(); ++i) indices[i] = i;
    std::vector<float> host(images.size() * kImageFloats);
    fill_batch(images, indices, host.data());
    Tensor input = context.alloc({int64_t(images.size()), kImageChannels, kImageSize, kImageSize});
    input.upload(host);
    return input;
  }

  std::vector<float> extract(const std::string& recipe, const ImageSet& set) {
    return extract_features(context, model, feature_recipe(recipe), set, int(kImages), nullptr, "");
  }
};

// Every image mirrored left-right, in the byte format of the data files.
ImageSet mirrored(const ImageSet& images) {
  ImageSet out = images;
  constexpr size_t side = cifar::kImageSide;
  for (size_t row = 0; row < out.pixels.size() / side; ++row) {
    std::reverse(out.pixels.begin() + long(row * side),
                 out.pixels.begin() + long((row + 1) * side));
  }
  return out;
}

// A [n, c, size, size] map max-pooled over size/grid x size/grid cells.
std::vector<float> host_max_pool(const std::vector<float>& map, size_t n, size_t c, size_t size,
                                 size_t grid) {
  const size_t cell = size / grid;
  std::vector<float> out(n * c * grid * grid);
  for (size_t plane = 0; plane < n * c; ++plane) {
    for (size_t gy = 0; gy < grid; ++gy) {
      for (size_t gx = 0; gx < grid; ++gx) {
        float best = map[(plane * size + gy * cell) * size + gx * cell];
        for (size_t y = gy * cell; y < (gy + 1) * cell; ++y) {
          for (size_t x = gx * cell; x < (gx + 1) * cell; ++x) {
            best = std::max(best, map[(plane * size + y) * size + x]);
          }
        }
        out[(plane * grid + gy) * grid + gx] = best;
      }
    }
  }
  return out;
}

TEST_CASE("the named recipes and their dimensions") {
  CHECK(feature_recipe("latent").dim() == kFeatureDim);
  CHECK(feature_recipe("latent-flip").dim() == kFeatureDim);
  CHECK(feature_recipe("pyramid").dim() == 4096 + 2048 + 2048);
  CHECK(feature_recipe("pyramid-flip").dim() == 8192);
  CHECK(feature_recipe("pyramid-flip").flip_average);
  CHECK(feature_recipe("latent-quadrants").dim() == 8192 + 256 * 4 + 128 * 4);
  CHECK(feature_recipes().front().name == "latent");
  std::set<std::string> names;
  for (const FeatureRecipe& recipe : feature_recipes()) {
    names.insert(recipe.name);
    for (const FeatureTap& tap : recipe.taps) CHECK_NOTHROW(tap.pool_steps());
  }
  CHECK(names.size() == feature_recipes().size());
  CHECK(feature_recipe_help().find("pyramid (8192-d): conv1 4x4 + conv2 4x4 + latent 4x4") !=
        std::string::npos);
  CHECK_THROWS_WITH_AS(feature_recipe("pyramids"),
                       "unknown feature recipe 'pyramids' (latent, latent-flip, pyramid, "
                       "pyramid-flip, latent-quadrants)",
                       std::invalid_argument);
  CHECK_THROWS_AS((FeatureTap{EncoderMap::Conv2, 3}.pool_steps()), std::logic_error);
}

TEST_CASE("the latent recipe is the encoder's latent, bit for bit, in any batch size") {
  Fixture f;
  Tensor input = f.upload_all();
  Tensor latent = f.context.alloc({int64_t(kImages), kLatentChannels, kLatentSize, kLatentSize});
  f.model.encode(input, latent);
  const std::vector<float> expected = latent.download();
  CHECK(f.extract("latent", f.images) == expected);
  // Batches of 2 (and a tail of 1) give the same rows.
  CHECK(extract_features(f.context, f.model, feature_recipe("latent"), f.images, 2, nullptr, "") ==
        expected);
}

TEST_CASE("pooled taps equal host max-pools of the encoder's maps, in the recipe's order") {
  Fixture f;
  Tensor input = f.upload_all();
  f.model.encode_maps(input);
  std::map<EncoderMap, std::vector<float>> maps;
  for (EncoderMap map : {EncoderMap::Conv1, EncoderMap::Conv2, EncoderMap::Latent}) {
    maps[map] = f.model.encoder_map(map, int64_t(kImages)).download();
  }
  for (const char* name : {"pyramid", "latent-quadrants"}) {
    CAPTURE(name);
    const FeatureRecipe& recipe = feature_recipe(name);
    const std::vector<float> features = f.extract(name, f.images);
    REQUIRE(features.size() == kImages * size_t(recipe.dim()));
    size_t offset = 0;
    for (const FeatureTap& tap : recipe.taps) {
      const size_t c = size_t(map_channels(tap.map)), tap_dim = size_t(tap.dim());
      const std::vector<float> pooled =
          host_max_pool(maps[tap.map], kImages, c, size_t(map_size(tap.map)), size_t(tap.grid));
      for (size_t i = 0; i < kImages; ++i) {
        CAPTURE(i);
        CAPTURE(map_name(tap.map));
        const float* row = features.data() + i * size_t(recipe.dim()) + offset;
        CHECK(std::equal(row, row + tap_dim, pooled.begin() + long(i * tap_dim)));
      }
      offset += tap_dim;
    }
  }
}

TEST_CASE("flip averaging is the mean of the image's and its mirror image's features") {
  Fixture f;
  const std::vector<float> plain = f.extract("pyramid", f.images);
  const std::vector<float> mirror = f.extract("pyramid", mirrored(f.images));
  const std::vector<float> averaged = f.extract("pyramid-flip", f.images);
  REQUIRE(averaged.size() == plain.size());
  std::vector<float> mean(plain.size());
  for (size_t i = 0; i < mean.size(); ++i) mean[i] = 0.5f * (plain[i] + mirror[i]);
  CHECK(averaged == mean);
  // The mirror changes the features: the average is not the plain one.
  CHECK(averaged != plain);
}

}  // namespace
}  // namespace cae::nn
