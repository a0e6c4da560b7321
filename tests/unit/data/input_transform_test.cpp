// The input transform: whitening learned on a set makes that set's
// covariance the identity (ZCA and PCA), its inverse gives the images back,
// contrast normalisation gives every image mean 0 and deviation 1, and the
// checkpoint's fields read back as they were written.
#include "data/input_transform.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <stdexcept>

#include "image_values.hpp"

namespace cae {
namespace {

// `count` 3x4x4 images (48 values) whose pixels are correlated: a few random
// patterns mixed with random weights, plus noise, so the covariance is far
// from diagonal but of full rank.
ImageSet correlated_images(size_t count, uint64_t seed) {
  ImageSet set;
  set.channels = 3;
  set.side = 4;
  const size_t d = set.image_bytes();
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::vector<std::vector<double>> patterns(4, std::vector<double>(d));
  for (auto& pattern : patterns) {
    for (double& v : pattern) v = unit(rng) - 0.5;
  }
  set.pixels.resize(count * d);
  for (size_t i = 0; i < count; ++i) {
    double w[4];
    for (double& x : w) x = unit(rng) * 2.0 - 1.0;
    for (size_t k = 0; k < d; ++k) {
      double v = 128.0 + 20.0 * (unit(rng) - 0.5);
      for (size_t p = 0; p < 4; ++p) v += 60.0 * w[p] * patterns[p][k];
      set.pixels[i * d + k] = uint8_t(std::lround(std::min(255.0, std::max(0.0, v))));
    }
    set.labels.push_back(uint8_t(i % 10));
  }
  return set;
}

// The largest deviation of the values' covariance from the identity, and of
// their mean from zero.
void check_white(const std::vector<float>& values, size_t count, size_t d, double tolerance) {
  std::vector<double> mean(d, 0.0);
  for (size_t i = 0; i < count; ++i) {
    for (size_t k = 0; k < d; ++k) mean[k] += values[i * d + k] / double(count);
  }
  double worst_mean = 0, worst_covariance = 0;
  for (size_t k = 0; k < d; ++k) worst_mean = std::max(worst_mean, std::abs(mean[k]));
  for (size_t r = 0; r < d; ++r) {
    for (size_t c = 0; c < d; ++c) {
      double sum = 0;
      for (size_t i = 0; i < count; ++i) {
        sum += (values[i * d + r] - mean[r]) * (values[i * d + c] - mean[c]);
      }
      const double want = r == c ? 1.0 : 0.0;
      worst_covariance = std::max(worst_covariance, std::abs(sum / double(count) - want));
    }
  }
  CHECK(worst_mean < tolerance);
  CHECK(worst_covariance < tolerance);
}

InputTransformSpec spec(Whitening whitening, double epsilon, bool contrast = false) {
  InputTransformSpec s;
  s.whitening = whitening;
  s.whitening_epsilon = epsilon;
  s.contrast_normalize = contrast;
  return s;
}

}  // namespace

TEST_CASE("whitened training images have identity covariance (zca and pca)") {
  const ImageSet set = correlated_images(3000, 7);
  for (Whitening kind : {Whitening::Zca, Whitening::Pca}) {
    CAPTURE(int(kind));
    const InputTransform transform = learn_input_transform(set, spec(kind, 1e-9));
    std::vector<float> values = all_images(set);
    transform.apply(values.data(), set.size());
    check_white(values, set.size(), set.image_bytes(), 2e-3);
  }
}

TEST_CASE("zca is symmetric and pca orders its components by variance") {
  const ImageSet set = correlated_images(2000, 8);
  const InputTransform zca = learn_input_transform(set, spec(Whitening::Zca, 0.1));
  const size_t d = zca.dim;
  double asymmetry = 0;
  for (size_t r = 0; r < d; ++r) {
    for (size_t c = 0; c < d; ++c) {
      asymmetry = std::max(asymmetry, double(std::abs(zca.matrix[r * d + c] - zca.matrix[c * d + r])));
    }
  }
  CHECK(asymmetry < 1e-3);
  // PCA's first row scales the largest-variance direction down the most: its
  // norm is the smallest 1/sqrt(l + e).
  const InputTransform pca = learn_input_transform(set, spec(Whitening::Pca, 0.1));
  auto row_norm = [&](size_t r) {
    double sum = 0;
    for (size_t c = 0; c < d; ++c) sum += double(pca.matrix[r * d + c]) * pca.matrix[r * d + c];
    return std::sqrt(sum);
  };
  CHECK(row_norm(0) < row_norm(d / 2));
  CHECK(row_norm(d / 2) <= row_norm(d - 1) + 1e-6);
}

TEST_CASE("the inverse of the transform recovers the input") {
  const ImageSet set = correlated_images(500, 9);
  for (Whitening kind : {Whitening::Zca, Whitening::Pca}) {
    for (bool contrast : {false, true}) {
      CAPTURE(int(kind));
      CAPTURE(contrast);
      const RoundTrip trip = through_and_back(learn_input_transform(set, spec(kind, 0.1, contrast)), set);
      CHECK(trip.changed);
      double worst = 0;
      for (size_t i = 0; i < trip.original.size(); ++i) {
        worst = std::max(worst, double(std::abs(trip.restored[i] - trip.original[i])));
      }
      CHECK(worst < 1e-4);
    }
  }
}

TEST_CASE("contrast normalisation gives every image mean 0 and deviation 1") {
  const ImageSet set = correlated_images(50, 10);
  std::vector<float> values = all_images(set);
  const size_t d = set.image_bytes();
  std::vector<ImageScale> scales;
  contrast_normalize(values.data(), set.size(), d, &scales);
  REQUIRE(scales.size() == set.size());
  for (size_t i = 0; i < set.size(); ++i) {
    double sum = 0, squares = 0;
    for (size_t k = 0; k < d; ++k) sum += values[i * d + k];
    for (size_t k = 0; k < d; ++k) squares += double(values[i * d + k]) * values[i * d + k];
    const double variance = squares / double(d);
    CHECK(std::abs(sum / double(d)) < 1e-5);
    // sqrt(var / (var + epsilon)): the epsilon keeps it just below 1.
    const double raw_variance = double(scales[i].deviation) * scales[i].deviation - kContrastEpsilon;
    CHECK(std::sqrt(variance) == doctest::Approx(std::sqrt(raw_variance / (raw_variance + kContrastEpsilon))).epsilon(1e-4));
  }
  // An image of ordinary contrast comes out at deviation 1 (the epsilon is
  // negligible next to its variance of 0.25).
  std::vector<float> checkerboard(d);
  for (size_t k = 0; k < d; ++k) checkerboard[k] = float(k % 2);
  contrast_normalize(checkerboard.data(), 1, d);
  double squares = 0;
  for (float v : checkerboard) squares += double(v) * v;
  CHECK(std::sqrt(squares / double(d)) == doctest::Approx(1.0).epsilon(1e-3));
  // A flat image is centred, not divided by zero.
  std::vector<float> flat(d, 0.5f);
  contrast_normalize(flat.data(), 1, d);
  for (float v : flat) CHECK(v == 0.0f);
}

TEST_CASE("--whiten values: kinds, EPS, and refusals") {
  CHECK(!parse_whitening("none").active());
  CHECK(parse_whitening("zca").whitening == Whitening::Zca);
  CHECK(parse_whitening("zca").whitening_epsilon == kDefaultWhiteningEpsilon);
  CHECK(parse_whitening("pca:0.01").whitening == Whitening::Pca);
  CHECK(parse_whitening("pca:0.01").whitening_epsilon == 0.01);
  CHECK(parse_whitening("zca:0").whitening_epsilon == 0.0);
  CHECK(whitening_name(parse_whitening("zca")) == "zca:0.1");
  CHECK(whitening_name(parse_whitening("pca:1e-3")) == "pca:0.001");
  for (const char* bad : {"zca:-1", "zca:nan", "zca:inf", "zca:", "zca:1x", "white", "none:1", "ZCA"}) {
    CAPTURE(bad);
    CHECK_THROWS_AS(parse_whitening(bad), std::invalid_argument);
  }
}

TEST_CASE("a singular covariance without EPS is refused, with EPS it is whitened") {
  const ImageSet few = correlated_images(10, 11);  // 10 images of 48 values
  CHECK_THROWS_AS(learn_input_transform(few, spec(Whitening::Zca, 0.0)), std::runtime_error);
  const InputTransform transform = learn_input_transform(few, spec(Whitening::Zca, 0.1));
  for (float v : transform.matrix) CHECK(std::isfinite(v));
}

TEST_CASE("the checkpoint's fields and tensors read back as written") {
  const ImageSet set = correlated_images(300, 12);
  const InputTransform transform = learn_input_transform(set, spec(Whitening::Zca, 0.05, true));
  SafetensorsMetadata metadata;
  transform.add_metadata(metadata);
  std::vector<NamedTensor> tensors = transform.tensors();
  tensors.push_back({"encoder.conv1.weight", {1}, {0.5f}});
  const InputTransform read = read_input_transform(metadata, tensors, set.image_bytes(), "m");
  CHECK(read.spec == transform.spec);
  CHECK(read.mean == transform.mean);
  CHECK(read.matrix == transform.matrix);
  CHECK(read.inverse == transform.inverse);
  REQUIRE(tensors.size() == 1);  // the input tensors were taken out
  CHECK(tensors[0].name == "encoder.conv1.weight");

  std::vector<NamedTensor> missing = transform.tensors();
  missing.pop_back();
  CHECK_THROWS_AS(read_input_transform(metadata, missing, set.image_bytes(), "m"), std::runtime_error);
  std::vector<NamedTensor> misshapen = transform.tensors();
  CHECK_THROWS_AS(read_input_transform(metadata, misshapen, set.image_bytes() + 1, "m"), std::runtime_error);
  std::vector<NamedTensor> poisoned = transform.tensors();
  poisoned[1].data[3] = NAN;
  CHECK_THROWS_AS(read_input_transform(metadata, poisoned, set.image_bytes(), "m"), std::runtime_error);
  SafetensorsMetadata bad = metadata;
  bad["whiten"] = "zca:-2";
  std::vector<NamedTensor> again = transform.tensors();
  CHECK_THROWS_AS(read_input_transform(bad, again, set.image_bytes(), "m"), std::runtime_error);
  // Tensors of a transform the metadata does not name are refused.
  std::vector<NamedTensor> stray = transform.tensors();
  CHECK_THROWS_AS(read_input_transform({}, stray, set.image_bytes(), "m"), std::runtime_error);
}

}  // namespace cae
