// Patch whitening: the convolution it applies is the one its filter says
// (hand-computed cases), its filters are zero-mean and whiten neighbouring
// pixels of correlated images, its inverse gives the images back, and its
// checkpoint tensors and --whiten values read back or are refused.
#include "data/patch_whitening.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <stdexcept>

#include "image_values.hpp"
#include "data/image_set.hpp"
#include "data/input_transform.hpp"

namespace cae {
namespace {

// `count` images of `channels` x side x side whose neighbouring pixels are
// strongly correlated: white noise smoothed by a 5x5 box, shared in part
// across channels, then scaled into 0..255.
ImageSet smooth_images(size_t count, int channels, int side, uint64_t seed) {
  ImageSet set;
  set.channels = channels;
  set.side = side;
  const size_t plane = size_t(side) * size_t(side), d = set.image_bytes();
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  set.pixels.resize(count * d);
  std::vector<double> noise(plane), shared(plane);
  const auto smooth = [&](const std::vector<double>& in, int i, int j) {
    double sum = 0;
    for (int a = -2; a <= 2; ++a) {
      for (int b = -2; b <= 2; ++b) {
        const int y = (i + a + side) % side, x = (j + b + side) % side;
        sum += in[size_t(y) * size_t(side) + size_t(x)];
      }
    }
    return sum / 25.0;
  };
  for (size_t n = 0; n < count; ++n) {
    for (double& v : shared) v = normal(rng);
    for (int c = 0; c < channels; ++c) {
      for (double& v : noise) v = normal(rng);
      for (int i = 0; i < side; ++i) {
        for (int j = 0; j < side; ++j) {
          const double v = 128.0 + 150.0 * (0.7 * smooth(shared, i, j) + 0.5 * smooth(noise, i, j));
          set.pixels[n * d + size_t(c) * plane + size_t(i) * size_t(side) + size_t(j)] =
              uint8_t(std::lround(std::min(255.0, std::max(0.0, v))));
        }
      }
    }
    set.labels.push_back(uint8_t(n % 10));
  }
  return set;
}

// The correlation of horizontally adjacent pixels of channel 0, inside the
// images (away from the border the filter truncates).
double neighbour_correlation(const std::vector<float>& values, size_t count, int channels, int side) {
  const size_t d = size_t(channels) * size_t(side) * size_t(side);
  double sa = 0, sb = 0, saa = 0, sbb = 0, sab = 0, n = 0;
  for (size_t img = 0; img < count; ++img) {
    for (int i = 3; i < side - 3; ++i) {
      for (int j = 3; j < side - 4; ++j) {
        const double a = values[img * d + size_t(i) * size_t(side) + size_t(j)];
        const double b = values[img * d + size_t(i) * size_t(side) + size_t(j + 1)];
        sa += a; sb += b; saa += a * a; sbb += b * b; sab += a * b; n += 1;
      }
    }
  }
  const double cov = sab / n - (sa / n) * (sb / n);
  return cov / std::sqrt((saa / n - (sa / n) * (sa / n)) * (sbb / n - (sb / n) * (sb / n)));
}

}  // namespace

TEST_CASE("patch whitening applies the convolution its filter says (hand-computed)") {
  PatchWhitening t;
  t.channels = 1;
  t.side = 3;
  t.patch = 3;
  t.mean = {0.5f};
  // One tap: the right-hand neighbour, weight 2.
  t.filter.assign(9, 0.0f);
  t.filter[1 * 3 + 2] = 2.0f;
  std::vector<float> image = {1, 2, 3,
                              4, 5, 6,
                              7, 8, 9};
  t.apply(image.data(), 1);
  // y(i, j) = 2 * (x(i, j + 1) - 0.5); the last column's neighbour lies
  // outside the image, where the image counts as its mean: 0.
  const std::vector<float> want = {3, 5, 0,
                                   9, 11, 0,
                                   15, 17, 0};
  CHECK(image == want);

  // Two channels: output channel 1 is input channel 0's pixel above, minus
  // channel 0's mean; output channel 0 is zero.
  PatchWhitening two;
  two.channels = 2;
  two.side = 2;
  two.patch = 3;
  two.mean = {1.0f, 0.0f};
  two.filter.assign(2 * 2 * 9, 0.0f);
  two.filter[(1 * 2 + 0) * 9 + 0 * 3 + 1] = 1.0f;  // out 1, from 0, tap (row -1, col 0)
  std::vector<float> pair = {1, 2, 3, 4,    // channel 0
                             9, 9, 9, 9};  // channel 1
  two.apply(pair.data(), 1);
  const std::vector<float> want_pair = {0, 0, 0, 0,
                                        0, 0, 0, 1};
  CHECK(pair == want_pair);
}

TEST_CASE("learned patch filters are zero-mean and decorrelate neighbouring pixels") {
  const ImageSet set = smooth_images(400, 3, 16, 3);
  InputTransformSpec spec = parse_whitening("patch5:0.01");
  const InputTransform transform = learn_input_transform(set, spec);
  const PatchWhitening& t = transform.patch;
  REQUIRE(t.channels == 3);
  REQUIRE(t.patch == 5);
  REQUIRE(t.filter.size() == size_t(3 * 3 * 25));
  for (int c = 0; c < 3; ++c) {
    double sum = 0, centre = 0, largest_other = 0;
    for (int k = 0; k < 75; ++k) {
      const double v = t.filter[size_t(c) * 75 + size_t(k)];
      sum += v;
      if (k == c * 25 + 12) {
        centre = v;
      } else {
        largest_other = std::max(largest_other, std::abs(v));
      }
    }
    CAPTURE(c);
    CHECK(std::abs(sum) < 1e-4 * std::abs(centre));
    CHECK(centre > largest_other);  // the pixel's own value leads its whitened value
  }
  std::vector<float> values = all_images(set);
  const double before = neighbour_correlation(values, set.size(), 3, 16);
  transform.apply(values.data(), set.size());
  const double after = neighbour_correlation(values, set.size(), 3, 16);
  CAPTURE(before);
  CAPTURE(after);
  CHECK(before > 0.7);
  CHECK(std::abs(after) < 0.3);

  // The image at the channels' means is the zero image.
  std::vector<float> mean_image(set.image_bytes());
  for (int c = 0; c < 3; ++c) {
    for (size_t k = 0; k < 256; ++k) mean_image[size_t(c) * 256 + k] = t.mean[size_t(c)];
  }
  transform.apply(mean_image.data(), 1);
  for (float v : mean_image) CHECK(std::abs(v) < 1e-5f);
}

TEST_CASE("patch whitening's inverse gives the images back but for their mean") {
  const ImageSet set = smooth_images(6, 3, 12, 4);
  for (bool contrast : {false, true}) {
    CAPTURE(contrast);
    InputTransformSpec spec = parse_whitening("patch3:0.1");
    spec.contrast_normalize = contrast;
    const RoundTrip trip = through_and_back(learn_input_transform(set, spec), set);
    CHECK(trip.changed);
    const std::vector<float>& values = trip.restored;
    const std::vector<float>& original = trip.original;
    // Each patch's mean is removed, so an image's overall level is the one
    // thing the transform (nearly) loses: compare the images about their means.
    const size_t d = set.image_bytes();
    double worst = 0;
    for (size_t i = 0; i < set.size(); ++i) {
      double got_mean = 0, want_mean = 0;
      for (size_t k = 0; k < d; ++k) {
        got_mean += values[i * d + k] / double(d);
        want_mean += original[i * d + k] / double(d);
      }
      for (size_t k = 0; k < d; ++k) {
        worst = std::max(worst, std::abs((values[i * d + k] - got_mean) - (original[i * d + k] - want_mean)));
      }
    }
    CHECK(worst < 0.02);
  }
}

TEST_CASE("--whiten patch values: sizes, EPS, names and refusals") {
  const InputTransformSpec plain = parse_whitening("patch");
  CHECK(plain.whitening == Whitening::Patch);
  CHECK(plain.whitening_patch == kDefaultWhiteningPatch);
  CHECK(plain.whitening_epsilon == kDefaultWhiteningEpsilon);
  CHECK(parse_whitening("patch7").whitening_patch == 7);
  CHECK(parse_whitening("patch3:0.01").whitening_epsilon == 0.01);
  CHECK(parse_whitening("patch:0.2").whitening_patch == kDefaultWhiteningPatch);
  CHECK(whitening_name(parse_whitening("patch")) == "patch5:0.1");
  CHECK(whitening_name(parse_whitening("patch9:1e-3")) == "patch9:0.001");
  CHECK(parse_whitening("patch3") != parse_whitening("patch5"));
  for (const char* bad : {"patch4", "patch0", "patch17", "patch123", "patchx", "patch-3", "patch5:0",
                          "patch:0", "patch5:-1", "patch5:", "Patch5"}) {
    CAPTURE(bad);
    CHECK_THROWS_AS(parse_whitening(bad), std::invalid_argument);
  }
  ImageSet tiny = smooth_images(4, 1, 4, 5);
  CHECK_THROWS_AS(learn_input_transform(tiny, parse_whitening("patch5")), std::runtime_error);
  ImageSet flat = tiny;
  std::fill(flat.pixels.begin(), flat.pixels.end(), uint8_t(100));
  CHECK_THROWS_AS(learn_input_transform(flat, parse_whitening("patch3")), std::runtime_error);
}

TEST_CASE("patch whitening's checkpoint tensors read back as written") {
  const ImageSet set = smooth_images(50, 3, 8, 6);
  const InputTransform transform = learn_input_transform(set, parse_whitening("patch3:0.05"));
  SafetensorsMetadata metadata;
  transform.add_metadata(metadata);
  CHECK(metadata["whiten"] == "patch3:0.05");
  std::vector<NamedTensor> tensors = transform.tensors();
  REQUIRE(tensors.size() == 2);
  CHECK(tensors[0].shape == std::vector<int64_t>{3});
  CHECK(tensors[1].shape == std::vector<int64_t>{3, 3, 3, 3});
  const InputTransform read = read_input_transform(metadata, tensors, set.image_bytes(), "m");
  CHECK(read.spec == transform.spec);
  CHECK(read.patch.side == 8);
  CHECK(read.patch.mean == transform.patch.mean);
  CHECK(read.patch.filter == transform.patch.filter);
  CHECK(tensors.empty());

  // Images of another size, a filter of another patch size, a missing mean.
  std::vector<NamedTensor> again = transform.tensors();
  CHECK_THROWS_AS(read_input_transform(metadata, again, 3 * 7 * 7 + 1, "m"), std::runtime_error);
  SafetensorsMetadata other = metadata;
  other["whiten"] = "patch5:0.05";
  again = transform.tensors();
  CHECK_THROWS_AS(read_input_transform(other, again, set.image_bytes(), "m"), std::runtime_error);
  again = transform.tensors();
  again.erase(again.begin());
  CHECK_THROWS_AS(read_input_transform(metadata, again, set.image_bytes(), "m"), std::runtime_error);
  // A dense whitening's inverse beside a patch filter is not part of it.
  again = transform.tensors();
  again.push_back({"input.unwhitening", {1}, {1.0f}});
  CHECK_THROWS_AS(read_input_transform(metadata, again, set.image_bytes(), "m"), std::runtime_error);
}

}  // namespace cae
