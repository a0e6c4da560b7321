// add_normal_noise (ABI 1.12, optional): y = x + sigma * draw(seed, first +
// i), i the value's index in the boundary order. The reference takes the
// header's integer bits (SplitMix64's finaliser) and does Box-Muller in
// float64, independently of the header's float code, so
// a backend that draws by its storage order (channels-last), skips the
// shard's offset or pairs the sine and cosine the other way fails on every
// seed. Also: in place, sigma 0 leaves x as it is, repeated runs agree bit
// for bit, the input is left as it was, and a bad sigma or shape is refused
// with nothing written.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "checks.hpp"
#include "compare.hpp"
#include "device_data.hpp"
#include "random_data.hpp"
#include "report.hpp"
#include "suite.hpp"

namespace conformance {
namespace {

constexpr const char* kOp = "add_normal_noise";
// The draws' float arithmetic (a logarithm, a square root, a sine) against
// float64, relative to |x| + 6 sigma (|draw| < 5.8): a few ulp of each
// function; a wrong draw is off by about sigma.
constexpr double kTolerance = 1e-5;

// The header's 64 bits of the pair (integer arithmetic: exact anywhere),
// turned into the draw in float64.
double reference_draw(uint64_t seed, uint64_t index) {
  const uint64_t z = cae_normal_draw_bits(seed, index >> 1);
  const double u1 = double((z >> 40) + 1) / 16777216.0;
  const double u2 = double(z & 0xFFFFFFu) / 16777216.0;
  const double r = std::sqrt(-2.0 * std::log(u1));
  const double angle = 2.0 * 3.14159265358979323846 * u2;
  return r * ((index & 1) ? std::sin(angle) : std::cos(angle));
}

struct NoiseCase {
  Dims dims;
  float sigma;
  uint64_t first_index;
  bool in_place;
  std::string label() const {
    std::string text = "x[";
    for (size_t i = 0; i < dims.size(); ++i) text += (i ? "," : "") + std::to_string(dims[i]);
    return text + "] sigma " + std::to_string(sigma).substr(0, 4) + " from " +
           std::to_string(first_index) + (in_place ? " in place" : "");
  }
};

std::vector<NoiseCase> noise_cases(bool quick) {
  // 4-D with several channels (stored channels-last on some backends), one
  // channel, 2-D and 1-D; an odd first index splits a pair of draws.
  std::vector<NoiseCase> cases = {{{3, 5, 4, 6}, 0.3f, 0, false},
                                  {{3, 5, 4, 6}, 0.3f, 7, false},
                                  {{2, 1, 7, 7}, 1.0f, 98, false},
                                  {{17, 33}, 0.1f, 1, true},
                                  {{1001}, 2.0f, 0, false}};
  // A CIFAR training shard: the second of two devices' halves of a batch of 64.
  if (!quick) cases.push_back({{32, 3, 32, 32}, 0.1f, 32 * 3 * 32 * 32, true});
  return cases;
}

void check_case(const NoiseCase& c, const std::string& label) {
  const cae_backend_table& t = table();
  Random rng = random_for(kOp, label);
  const uint64_t seed = rng.engine()();
  const std::vector<float> values = rng.uniform(count_of(c.dims), -1.0f, 1.0f);
  cae::Tensor x = upload_tensor(c.dims, values);
  cae::Tensor separate = poisoned_tensor(c.dims);
  cae::Tensor& y = c.in_place ? x : separate;
  const auto run = [&] {
    const cae_status status =
        t.add_normal_noise(ctx().handle(), x.handle(), y.handle(), c.sigma, seed, c.first_index);
    record(status == CAE_STATUS_OK, kOp, label + ": runs",
           status == CAE_STATUS_OK ? "ok" : t.last_error(ctx().handle()));
    return download(y);
  };
  const std::vector<float> got = run();
  cae_ref::Vec want(values.size()), scale(values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    want[i] = double(values[i]) + double(c.sigma) * reference_draw(seed, c.first_index + i);
    scale[i] = std::fabs(double(values[i])) + 6.0 * double(c.sigma);
  }
  expect_within(kOp, label + ": y = x + sigma * draw", got, want, scale, kTolerance, c.dims);
  if (c.in_place) {
    x.upload(values.data(), values.size());
  } else {
    expect_identical(kOp, label + ": x unchanged", values, download(x));
  }
  expect_identical(kOp, label + ": a second run draws the same", got, run());
}

void check_zero_sigma() {
  Random rng = random_for(kOp, "sigma 0");
  const std::vector<float> values = rng.uniform(2 * 3 * 4 * 4, -1.0f, 1.0f);
  cae::Tensor x = upload_tensor({2, 3, 4, 4}, values);
  cae::Tensor y = poisoned_tensor({2, 3, 4, 4});
  ctx().add_normal_noise(x, y, 0.0f, 5, 0);
  expect_identical(kOp, "sigma 0: y = x", values, download(y));
}

void check_refusals() {
  const cae_backend_table& t = table();
  Random rng = random_for(kOp, "refusals");
  cae::Tensor x = upload_tensor({2, 3, 4, 4}, rng.uniform(96, -1.0f, 1.0f));
  cae::Tensor y = poisoned_tensor({2, 3, 4, 4});
  cae::Tensor other = poisoned_tensor({2, 4, 3, 4});
  const auto refused = [&](const std::string& what, cae::Tensor& out, float sigma) {
    expect_refused_untouched(
        kOp, what,
        [&] { return t.add_normal_noise(ctx().handle(), x.handle(), out.handle(), sigma, 1, 0); },
        {&out});
  };
  refused("sigma NaN", y, std::numeric_limits<float>::quiet_NaN());
  refused("sigma Inf", y, std::numeric_limits<float>::infinity());
  refused("sigma -0.1", y, -0.1f);
  refused("y [2,4,3,4] for x [2,3,4,4]", other, 0.1f);
}

}  // namespace

void check_noise() {
  if (!CAE_TABLE_HAS(&table(), add_normal_noise)) {
    note(kOp, kOp,
         "not provided (optional, ABI 1.12): denoising training draws its input noise on the "
         "host and uploads the noisy batch beside the clean one");
    return;
  }
  SUBCASE("refusals") { guarded(kOp, "refusals", check_refusals); }
  SUBCASE("sigma 0") { guarded(kOp, "sigma 0", check_zero_sigma); }
  for (const NoiseCase& c : noise_cases(suite().quick)) {
    const std::string label = c.label();
    SUBCASE(label.c_str()) {
      guarded(kOp, label, [&] { check_case(c, label); });
    }
  }
}

}  // namespace conformance
