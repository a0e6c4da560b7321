// Patch whitening's convolution on a backend (nn/backend_patch_whitening.hpp,
// nn/batch_transform.hpp) against the host's own (data/patch_whitening.cpp):
// the same function up to the rounding of the backend's convolution, a
// chunk's tail included; a backend that refuses the convolution leaves it to
// the host, which then gives the host's values to the bit, and says so.
#include "nn/batch_transform.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "backends.hpp"
#include "data/augment.hpp"
#include "data/batcher.hpp"
#include "nn/backend_patch_whitening.hpp"
#include "nn/transformed_images.hpp"
#include "relative_difference.hpp"

namespace cae::nn {
namespace {

// 12x12 images of random pixels with a per-channel tint, so that the means
// differ between channels.
ImageSet tinted_images(size_t count, int side, uint64_t seed) {
  ImageSet set;
  set.side = side;
  set.pixels.resize(count * set.image_bytes());
  std::mt19937_64 rng(seed);
  const size_t plane = size_t(side) * size_t(side);
  for (size_t i = 0; i < set.pixels.size(); ++i) {
    const size_t channel = (i / plane) % 3;
    set.pixels[i] = uint8_t(40 * channel + rng() % 160);
  }
  for (size_t i = 0; i < count; ++i) set.labels.push_back(uint8_t(i % 10));
  return set;
}

std::vector<float> filled(const ImageSet& images) {
  std::vector<size_t> all(images.size());
  for (size_t i = 0; i < all.size(); ++i) all[i] = i;
  std::vector<float> values(images.size() * images.image_bytes());
  fill_batch(images, all, values.data());
  return values;
}

// The transform `name` ("patch5:0.1") learned on `images`, after contrast
// normalisation when `contrast`.
InputTransform learned(const ImageSet& images, const char* name, bool contrast) {
  InputTransformSpec spec = parse_whitening(name);
  spec.contrast_normalize = contrast;
  return learn_input_transform(images, spec);
}

// The cpu backend's table with a conv2d_forward that refuses every shape, as
// a backend of 3x3 kernels only refuses a 5x5 patch.
cae_status refuse_conv(cae_context, cae_tensor, cae_tensor, cae_tensor, cae_tensor, int32_t) {
  return CAE_STATUS_UNSUPPORTED;
}

const cae_backend_table& refusing_table() {
  static const cae_backend_table table = [] {
    cae_backend_table t = test::cpu_table();
    t.conv2d_forward = refuse_conv;
    t.graph_compile = nullptr;
    t.graph_run = nullptr;
    t.graph_destroy = nullptr;
    return t;
  }();
  return table;
}

}  // namespace

TEST_CASE(
    "patch whitening's convolution on the cpu backend is the host's, a chunk's tail included") {
  auto contexts = test::make_contexts(test::cpu_table(), 1);
  Context& context = *contexts.front();
  // 300 images: a chunk of 256 and a tail of 44.
  const ImageSet images = tinted_images(300, 12, 3);
  for (const char* name : {"patch3:0.1", "patch5:0.1", "patch7:0.01"}) {
    CAPTURE(name);
    for (const bool contrast : {false, true}) {
      CAPTURE(contrast);
      const InputTransform transform = learned(images, name, contrast);
      REQUIRE(BackendPatchWhitening(context, transform.patch).refusal().empty());
      std::vector<float> host = filled(images), backend = host;
      transform.apply(host.data(), images.size());
      BatchTransform batch(&transform, &context);
      CHECK(batch.whitens_on_backend());
      const std::string size = name[5] + std::string("x") + name[5];
      CHECK(batch.placement() == "patch whitening's " + size + " convolution on the backend (cpu)");
      batch.apply(backend.data(), images.size());
      CHECK(test::max_relative_difference(host, backend) < 1e-5);
      // Whitening did something: the output is not the input.
      CHECK(test::max_relative_difference(host, filled(images)) > 0.1);
    }
  }
}

TEST_CASE("no patch whitening, no placement; none given, nothing done") {
  auto contexts = test::make_contexts(test::cpu_table(), 1);
  const ImageSet images = tinted_images(20, 12, 4);
  const InputTransform zca = learned(images, "zca:0.1", true);
  BatchTransform dense(&zca, contexts.front().get());
  CHECK_FALSE(dense.whitens_on_backend());
  CHECK(dense.placement().empty());
  std::vector<float> host = filled(images), batch = host;
  zca.apply(host.data(), images.size());
  dense.apply(batch.data(), images.size());
  CHECK(batch == host);
  BatchTransform none;
  std::vector<float> untouched = filled(images);
  none.apply(untouched.data(), images.size());
  CHECK(untouched == filled(images));
  const InputTransform patch = learned(images, "patch3", false);
  BackendPatchWhitening whitening(*contexts.front(), patch.patch);
  whitening.apply(nullptr, 0);  // no images, no calls
}

TEST_CASE("a backend that refuses the convolution leaves it to the host and says why") {
  auto contexts = test::make_contexts(refusing_table(), 1);
  const ImageSet images = tinted_images(70, 12, 5);
  const InputTransform transform = learned(images, "patch5:0.1", true);
  CHECK_FALSE(BackendPatchWhitening(*contexts.front(), transform.patch).refusal().empty());
  BatchTransform refused(&transform, contexts.front().get());
  CHECK_FALSE(refused.whitens_on_backend());
  const std::string host_line = "patch whitening's 5x5 convolution on the host";
  CHECK(refused.placement().rfind(host_line + ": ", 0) == 0);
  CHECK(refused.placement().find("conv2d_forward") != std::string::npos);
  std::vector<float> host = filled(images), batch = host;
  transform.apply(host.data(), images.size());
  refused.apply(batch.data(), images.size());
  CHECK(batch == host);
  BatchTransform no_context(&transform, nullptr);
  CHECK_FALSE(no_context.whitens_on_backend());
  CHECK(no_context.placement() == host_line);
}

TEST_CASE("the set whitened once on the backend gives the batches the per-batch order gives") {
  auto contexts = test::make_contexts(test::cpu_table(), 1);
  const ImageSet images = tinted_images(90, 12, 6);
  const InputTransform transform = learned(images, "patch5:0.1", true);
  BatchTransform batch(&transform, contexts.front().get());
  REQUIRE(batch.whitens_on_backend());
  const TransformedImages cached(images, batch, true);
  REQUIRE(!cached.empty());
  const std::vector<size_t> indices = {5, 0, 89, 12, 12, 7, 33, 61, 2, 18, 26, 30, 9, 1, 75, 38};
  const BatchAugmenter augmenter(Augmentation::Flip, 7);
  const std::vector<bool> flips = augmenter.flips(indices.size(), 2, 3);
  const size_t d = images.image_bytes();
  std::vector<float> from_cache(indices.size() * d), per_batch(indices.size() * d);
  cached.fill(indices, flips, from_cache.data());
  fill_batch(images, indices, per_batch.data());
  augmenter.apply(per_batch.data(), indices.size(), 3, 12, 2, 3);
  batch.apply(per_batch.data(), indices.size());
  CHECK(test::max_relative_difference(per_batch, from_cache) < 1e-6);
  // And the host's cache of the same transform, within the backend's rounding.
  const TransformedImages on_host(images, &transform, true);
  std::vector<float> host_rows(indices.size() * d);
  on_host.fill(indices, flips, host_rows.data());
  CHECK(test::max_relative_difference(host_rows, from_cache) < 1e-5);
}

}  // namespace cae::nn
