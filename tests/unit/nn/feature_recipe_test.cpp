// Feature recipes on the cpu backend: their dimensions, the "latent" recipe
// equal to the encoder's latent as `cae extract` always wrote it, pooled taps
// equal to the same max-pools computed on the host from the encoder's maps,
// and flip averaging equal to the mean of the image's and the mirror's features.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <set>
#include <stdexcept>

#include "backends.hpp"
#include "data/batcher.hpp"
#include "nn/feature_encoders.hpp"
#include "nn/features.hpp"

namespace cae::nn {
namespace {

constexpr size_t kImages = 5;

// Every image of the set, as the network's input batch.
Tensor upload_images(Context& context, const Network& network, const ImageSet& images) {
  std::vector<size_t> indices(images.size());
  for (size_t i = 0; i < indices.size(); ++i) indices[i] = i;
  std::vector<float> host(images.size() * size_t(network.image_floats()));
  fill_batch(images, indices, host.data());
  Tensor input = context.alloc(network.image_dims(int64_t(images.size())));
  input.upload(host);
  return input;
}

// The cpu backend without ABI 1.13's channel_code: the device applies the
// encoders' linear part as a 1x1 convolution with fixed weights instead.
const cae_backend_table& cpu_table_without_channel_code() {
  static const cae_backend_table table = [] {
    cae_backend_table copy = test::cpu_table();
    copy.channel_code = nullptr;
    return copy;
  }();
  return table;
}

struct Fixture {
  explicit Fixture(const cae_backend_table& backend = test::cpu_table())
      : contexts(test::make_contexts(backend, 1)) {}
  std::vector<std::unique_ptr<Context>> contexts;
  Context& context = *contexts[0];
  ImageSet images = test::small_image_set(kImages, 21);
  Network network = Network::seed();
  Autoencoder model{context, Parameters::he_normal(network, 4)};

  Tensor upload_all() { return upload_images(context, network, images); }

  std::vector<float> extract(const std::string& recipe, const ImageSet& set) {
    return extract_features(context, model, feature_recipe(recipe), set, int(kImages), nullptr, "");
  }
};

// Every image mirrored left-right, in the byte format of the data files.
ImageSet mirrored(const ImageSet& images) {
  ImageSet out = images;
  const size_t side = size_t(out.side);
  for (size_t row = 0; row < out.pixels.size() / side; ++row) {
    std::reverse(out.pixels.begin() + long(row * side),
                 out.pixels.begin() + long((row + 1) * side));
  }
  return out;
}

// A [n, c, size, size] map max-pooled to grid x grid cells, cell g spanning
// [floor(g*size/grid), ceil((g+1)*size/grid)).
std::vector<float> host_max_pool(const std::vector<float>& map, size_t n, size_t c, size_t size,
                                 size_t grid) {
  auto first = [&](size_t g) { return g * size / grid; };
  auto end = [&](size_t g) { return ((g + 1) * size + grid - 1) / grid; };
  std::vector<float> out(n * c * grid * grid);
  for (size_t plane = 0; plane < n * c; ++plane) {
    for (size_t gy = 0; gy < grid; ++gy) {
      for (size_t gx = 0; gx < grid; ++gx) {
        float best = map[(plane * size + first(gy)) * size + first(gx)];
        for (size_t y = first(gy); y < end(gy); ++y) {
          for (size_t x = first(gx); x < end(gx); ++x) {
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
  const Network seed = Network::seed();
  CHECK(feature_recipe("latent").dim(seed) == seed.feature_dim());
  CHECK(feature_recipe("latent-flip").dim(seed) == 8192);
  CHECK(feature_recipe("pyramid").dim(seed) == 4096 + 2048 + 2048);
  CHECK(feature_recipe("pyramid-flip").dim(seed) == 8192);
  CHECK(feature_recipe("pyramid-flip").flip_average);
  CHECK(feature_recipe("latent-quadrants").dim(seed) == 8192 + 256 * 4 + 128 * 4);
  CHECK(feature_recipes().front().name == "latent");
  std::set<std::string> names;
  for (const FeatureRecipe& recipe : feature_recipes()) {
    names.insert(recipe.name);
    // The seed's maps are powers of two of their grids: pooled on the device
    // alone, unless encoded first.
    for (const FeatureTap& tap : recipe.taps(seed)) CHECK(tap.host_pooled() == !tap.coding.plain());
  }
  CHECK(names.size() == feature_recipes().size());
  CHECK(feature_recipe("pyramid").describe(seed) == "conv1 4x4 + conv2 4x4 + latent 4x4");
  CHECK(feature_recipe_help().find("pyramid: conv1 4x4 + conv2 4x4 + latent 4x4; dimension "
                                   "seed 8192/8192 wide 12288/12288 deep 10240/10240") !=
        std::string::npos);
  CHECK_THROWS_WITH_AS(feature_recipe("pyramids"),
                       "unknown feature recipe 'pyramids' (latent, latent-flip, pyramid, "
                       "pyramid-flip, pyramid-tri, pyramid-tri-flip, latent-quadrants, or composed "
                       "terms such as "
                       "conv1:soft0.25:sum2+latent)",
                       std::invalid_argument);
}

TEST_CASE("fixed grids: 96x96 images give the 32x32 dimension, pooled partly on the host") {
  const Network large(model_preset("seed"), 3, 96);
  CHECK(large.feature_dim() == 128 * 24 * 24);
  CHECK(feature_recipe("latent").dim(large) == 8192);
  const std::vector<FeatureTap> taps = feature_recipe("pyramid").taps(large);
  REQUIRE(taps.size() == 3);
  CHECK(taps[0].size == 96);
  CHECK(taps[0].device_steps() == 3);  // 96 -> 12 on the device, 12 -> 4 on the host
  CHECK(taps[0].host_pooled());
  CHECK(taps[2].size == 24);
  CHECK(taps[2].device_steps() == 1);  // 24 -> 12 -> 4
  // A map smaller than its grid is kept whole: the deep preset on 8x8 images.
  const Network tiny(model_preset("deep"), 3, 8);
  CHECK(feature_recipe("latent").dim(tiny) == 128 * 2 * 2);
}

TEST_CASE("the latent recipe is the encoder's latent, bit for bit, in any batch size") {
  Fixture f;
  Tensor input = f.upload_all();
  const int latent_size = f.network.latent_size();
  Tensor latent =
      f.context.alloc({int64_t(kImages), f.network.latent_channels(), latent_size, latent_size});
  f.model.encode(input, latent);
  const std::vector<float> expected = latent.download();
  CHECK(f.extract("latent", f.images) == expected);
  // Batches of 2 (and a tail of 1) give the same rows.
  CHECK(extract_features(f.context, f.model, feature_recipe("latent"), f.images, 2, nullptr, "") ==
        expected);
}

// Each recipe's taps equal the host's max-pools of the encoder's maps, in order.
void check_pooled_taps(const Network& network, const ImageSet& images) {
  std::vector<std::unique_ptr<Context>> contexts = test::make_contexts(test::cpu_table(), 1);
  Context& context = *contexts[0];
  Autoencoder model(context, Parameters::he_normal(network, 4));
  model.encode_maps(upload_images(context, network, images));
  std::map<EncoderMap, std::vector<float>> maps;
  for (EncoderMap map = 0; map <= network.encoder_layers(); ++map) {
    maps[map] = model.encoder_map(map, int64_t(images.size())).download();
  }
  for (const char* name : {"latent", "pyramid", "latent-quadrants"}) {
    CAPTURE(name);
    const FeatureRecipe& recipe = feature_recipe(name);
    const std::vector<float> features =
        extract_features(context, model, recipe, images, 2, nullptr, "");
    const size_t dim = size_t(recipe.dim(network));
    REQUIRE(features.size() == images.size() * dim);
    size_t offset = 0;
    for (const FeatureTap& tap : recipe.taps(network)) {
      const size_t c = size_t(tap.channels), tap_dim = size_t(tap.dim());
      const std::vector<float> pooled =
          host_max_pool(maps[tap.map], images.size(), c, size_t(tap.size), size_t(tap.cells()));
      for (size_t i = 0; i < images.size(); ++i) {
        CAPTURE(i);
        CAPTURE(map_name(network, tap.map));
        const float* row = features.data() + i * dim + offset;
        CHECK(std::equal(row, row + tap_dim, pooled.begin() + long(i * tap_dim)));
      }
      offset += tap_dim;
    }
  }
}

TEST_CASE("pooled taps equal host max-pools of the encoder's maps, in the recipe's order") {
  Fixture f;
  check_pooled_taps(f.network, f.images);
}

TEST_CASE("on 24x24 images the taps end on the host's pool (12 -> 4, and 6 -> 4 overlapping)") {
  const Network network(model_preset("seed"), 3, 24);
  ImageSet images;
  images.side = 24;
  std::mt19937_64 rng(3);
  for (size_t i = 0; i < 3; ++i) images.labels.push_back(uint8_t(i));
  images.pixels.resize(images.size() * images.image_bytes());
  for (uint8_t& p : images.pixels) p = uint8_t(rng());
  const std::vector<FeatureTap> taps = feature_recipe("pyramid").taps(network);
  CHECK(taps[0].host_pooled());
  CHECK(taps[2].size == 6);
  check_pooled_taps(network, images);
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

TEST_CASE("flip average, threshold and square root in one pass over threads: the passes' bits") {
  // 64 images of 8,192 features in one batch: a pass of two threads' worth
  // of floats, so the rows are finished on more than one thread.
  Fixture f;
  const ImageSet images = test::small_image_set(64, 23);
  auto extract = [&](const FeatureRecipe& recipe, const ImageSet& set) {
    return extract_features(f.context, f.model, recipe, set, 64, nullptr, "");
  };
  const std::vector<float> plain = extract(feature_recipe("pyramid"), images);
  const std::vector<float> mirror = extract(feature_recipe("pyramid"), mirrored(images));
  const FeatureRecipe finished =
      with_threshold(feature_recipe("conv1+conv2+latent:max4+flip+sqrt"), 0.25);
  std::vector<float> expected(plain.size());
  for (size_t i = 0; i < expected.size(); ++i) expected[i] = 0.5f * (plain[i] + mirror[i]);
  soft_threshold(expected.data(), expected.size(), 0.25f);
  signed_sqrt(expected.data(), expected.size());
  CHECK(extract(finished, images) == expected);
}

TEST_CASE("composed recipes: a pyramid written term by term is the pyramid, bit for bit") {
  Fixture f;
  const FeatureRecipe composed = feature_recipe("conv1+conv2+latent:max4");
  CHECK(composed.name == "conv1:id:max4+conv2:id:max4+latent:id:max4");
  CHECK(composed.dim(f.network) == feature_recipe("pyramid").dim(f.network));
  CHECK(f.extract(composed.name, f.images) == f.extract("pyramid", f.images));
  CHECK(f.extract("conv1+conv2+latent:max4+flip", f.images) == f.extract("pyramid-flip", f.images));
  // The named triangle pyramid is its composed spelling.
  CHECK(feature_recipe("pyramid-tri").describe(f.network) ==
        "conv1 triangle code 4x4 + conv2 triangle code 4x4 + latent triangle code 4x4");
  CHECK(f.extract("pyramid-tri-flip", f.images) ==
        f.extract("conv1:tri:max4+conv2:tri:max4+latent:tri:max4+flip", f.images));
}

TEST_CASE("composed recipes: encoded taps are the encoder over the whole map, then sqrt last") {
  Fixture f;
  const FeatureRecipe recipe = feature_recipe("conv2:soft0.1:sum2+latent:tri:sum3");
  CHECK(recipe.dim(f.network) == 128 * 2 * 4 + 128 * 9);
  CHECK(recipe.describe(f.network) ==
        "conv2 soft threshold 0.1 split by sign 2x2 sums + latent triangle code 3x3 sums");
  const std::vector<float> features = f.extract(recipe.name, f.images);
  f.model.encode_maps(f.upload_all());
  const std::vector<float> conv2 = f.model.encoder_map(1, int64_t(kImages)).download();
  const std::vector<float> latent = f.model.encoder_map(2, int64_t(kImages)).download();
  const size_t dim = size_t(recipe.dim(f.network));
  std::vector<float> scratch(2 * 32 * 32);
  for (size_t i = 0; i < kImages; ++i) {
    std::vector<float> expected(dim);
    encode_and_pool(conv2.data() + i * 128 * 16 * 16, 128, 16, recipe.taps(f.network)[0].coding, 2,
                    expected.data(), scratch.data());
    encode_and_pool(latent.data() + i * 128 * 8 * 8, 128, 8, recipe.taps(f.network)[1].coding, 3,
                    expected.data() + 128 * 2 * 4, scratch.data());
    CHECK(std::equal(expected.begin(), expected.end(), features.begin() + long(i * dim)));
  }
  std::vector<float> rooted = features;
  signed_sqrt(rooted.data(), rooted.size());
  CHECK(f.extract(recipe.name + "+sqrt", f.images) == rooted);
}

TEST_CASE("encoders and sums the device applies give the host's features") {
  // The linear part by the backend's channel code, and by a 1x1 convolution.
  for (const cae_backend_table* backend : {&test::cpu_table(), &cpu_table_without_channel_code()}) {
    CAPTURE(backend == &test::cpu_table());
    Fixture f(*backend);
    REQUIRE(f.context.has_channel_code() == (backend == &test::cpu_table()));
    // Triangle and polarity split under max pooling, on whole (4x4 of 32) and
    // overlapping (3x3 of 8) cells, with flips and a square root after them;
    // under sum pooling encoded and summed by 2x2 blocks on the device (every
    // encoder, into 2x2 and 4x4 cells), and on the host where cells overlap.
    for (const char* name :
         {"pyramid-tri-flip", "conv1:soft0.2:max2+conv2:tri:max4+latent:tri:max3+sqrt",
          "conv2:tri:sum2+latent:soft0.1:max8",
          "conv1:tri:sum2+conv2:soft0.1:sum4+latent:id:sum2+flip+sqrt",
          "conv1:soft0.05:sum4+conv2:tri:sum3+latent:id:sum8"}) {
      CAPTURE(name);
      const FeatureRecipe recipe = feature_recipe(name);
      const std::vector<float> host = extract_features(f.context, f.model, recipe, f.images, 2,
                                                       nullptr, "", EncoderPlacement::Host);
      const std::vector<float> device = extract_features(f.context, f.model, recipe, f.images, 2,
                                                         nullptr, "", EncoderPlacement::Device);
      REQUIRE(device.size() == host.size());
      float largest = 0.0f;
      for (float value : host) largest = std::max(largest, std::fabs(value));
      REQUIRE(largest > 0.0f);
      size_t nonzero = 0;
      for (size_t i = 0; i < host.size(); ++i) {
        CAPTURE(i);
        CHECK(std::fabs(device[i] - host[i]) <= 1e-5f * largest);
        nonzero += host[i] != 0.0f;
      }
      CHECK(nonzero > host.size() / 10);  // the comparison is not of zeros
    }
    // The cpu backend holds its maps in host memory: Auto encodes there, bit for bit.
    CHECK(f.extract("pyramid-tri", f.images) ==
          extract_features(f.context, f.model, feature_recipe("pyramid-tri"), f.images,
                           int(kImages), nullptr, "", EncoderPlacement::Host));
  }
}

TEST_CASE("composed recipes: a map the model lacks is refused naming its maps") {
  CHECK_THROWS_WITH_AS(feature_recipe("conv3:tri").taps(Network::seed()),
                       "feature recipe 'conv3:tri:sum2': the model 'seed' has no conv3 (its maps: "
                       "conv1, conv2, latent)",
                       std::invalid_argument);
  CHECK(feature_recipe("conv3:tri").dim(Network(model_preset("deep"), 3, 32)) == 128 * 4);
}
}  // namespace
}  // namespace cae::nn
