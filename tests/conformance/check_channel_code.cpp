// channel_code (ABI 1.13, optional): the feature encoders' linear part at
// each pixel, y = code(x) + bias, then max(0, .) with relu. The reference is
// float64 from the same float32 inputs: the centred code subtracts each
// pixel's mean over the channels, the split code writes each channel and its
// negative C channels apart. A backend that centres over the wrong axis (the
// pixels, the images), forgets the bias or the ReLU, or puts the negative
// polarity next to the positive one fails on every seed: the inputs are
// mostly positive, as an encoder's maps are, so a missing mean is off by
// about half a value. Also: the input is left as it was, repeated runs agree
// bit for bit, and a bad code, bias or shape, or y the same tensor as x, is
// refused with nothing written.
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

constexpr const char* kOp = "channel_code";

struct CodeCase {
  Dims dims;  // x
  int32_t code;
  float bias;
  bool relu;
  std::string label() const {
    std::string text = "x[";
    for (size_t i = 0; i < dims.size(); ++i) text += (i ? "," : "") + std::to_string(dims[i]);
    return text + "] " + (code == CAE_CHANNEL_CODE_SPLIT ? "split" : "centred") + " bias " +
           std::to_string(bias).substr(0, 5) + (relu ? " relu" : "");
  }
  int64_t out_channels() const { return code == CAE_CHANNEL_CODE_SPLIT ? 2 * dims[1] : dims[1]; }
};

std::vector<CodeCase> code_cases(bool quick) {
  // Several channels (stored channels-last on some backends), one channel,
  // one pixel; the soft threshold's bias; a dense learner's width.
  std::vector<CodeCase> cases = {{{2, 5, 3, 3}, CAE_CHANNEL_CODE_CENTRED, 0.0f, true},
                                 {{2, 5, 3, 3}, CAE_CHANNEL_CODE_CENTRED, 0.5f, false},
                                 {{3, 1, 4, 4}, CAE_CHANNEL_CODE_CENTRED, 0.25f, true},
                                 {{4, 7, 1, 1}, CAE_CHANNEL_CODE_SPLIT, -0.25f, true},
                                 {{2, 3, 5, 5}, CAE_CHANNEL_CODE_SPLIT, 0.0f, false},
                                 {{3, 1, 2, 2}, CAE_CHANNEL_CODE_SPLIT, -0.25f, true},
                                 {{1, 600, 4, 4}, CAE_CHANNEL_CODE_CENTRED, 0.0f, true}};
  if (!quick) {
    cases.push_back({{8, 256, 8, 8}, CAE_CHANNEL_CODE_SPLIT, -0.25f, true});
    cases.push_back({{4, 1600, 6, 6}, CAE_CHANNEL_CODE_CENTRED, 0.0f, false});
  }
  return cases;
}

// The float64 definition; `scale` holds the magnitude of what each value
// combines (the channel, the pixel's mean of magnitudes, the bias).
void reference(const CodeCase& c, const std::vector<float>& x, cae_ref::Vec& want,
               cae_ref::Vec& scale) {
  const int64_t images = c.dims[0], channels = c.dims[1], pixels = c.dims[2] * c.dims[3];
  const int64_t out_channels = c.out_channels();
  want.assign(size_t(images * out_channels * pixels), 0.0);
  scale.assign(want.size(), 0.0);
  const auto finish = [&](double v) { return c.relu ? std::max(0.0, v) : v; };
  for (int64_t n = 0; n < images; ++n) {
    for (int64_t p = 0; p < pixels; ++p) {
      const auto at = [&](int64_t k) { return double(x[size_t((n * channels + k) * pixels + p)]); };
      double sum = 0, magnitude = 0;
      for (int64_t k = 0; k < channels; ++k) {
        sum += at(k);
        magnitude += std::fabs(at(k));
      }
      for (int64_t k = 0; k < channels; ++k) {
        const double mean_part =
            c.code == CAE_CHANNEL_CODE_CENTRED ? magnitude / double(channels) : 0;
        const double s = std::fabs(at(k)) + mean_part + std::fabs(double(c.bias));
        const size_t i = size_t((n * out_channels + k) * pixels + p);
        if (c.code == CAE_CHANNEL_CODE_CENTRED) {
          want[i] = finish(at(k) - sum / double(channels) + double(c.bias));
          scale[i] = s;
        } else {
          const size_t negative = size_t((n * out_channels + channels + k) * pixels + p);
          want[i] = finish(at(k) + double(c.bias));
          want[negative] = finish(-at(k) + double(c.bias));
          scale[i] = scale[negative] = s;
        }
      }
    }
  }
}

void check_case(const CodeCase& c, const std::string& label) {
  const cae_backend_table& t = table();
  Random rng = random_for(kOp, label);
  const std::vector<float> values = rng.uniform(count_of(c.dims), -0.25f, 1.0f);
  cae::Tensor x = upload_tensor(c.dims, values);
  const Dims out_dims = {c.dims[0], c.out_channels(), c.dims[2], c.dims[3]};
  cae::Tensor y = poisoned_tensor(out_dims);
  const auto run = [&] {
    const cae_status status =
        t.channel_code(ctx().handle(), x.handle(), y.handle(), c.code, c.bias, c.relu ? 1 : 0);
    record(status == CAE_STATUS_OK, kOp, label + ": runs",
           status == CAE_STATUS_OK ? "ok" : t.last_error(ctx().handle()));
    return download(y);
  };
  const std::vector<float> got = run();
  cae_ref::Vec want, scale;
  reference(c, values, want, scale);
  // A float32 sum of C terms (the mean) and two roundings after it.
  const double tolerance = 4.0 * std::ldexp(1.0, -24) * double(c.dims[1] + 2);
  expect_within(kOp, label + ": y = code(x) + bias", got, want, scale, tolerance, out_dims);
  expect_identical(kOp, label + ": x unchanged", values, download(x));
  expect_identical(kOp, label + ": a second run gives the same bits", got, run());
}

void check_refusals() {
  const cae_backend_table& t = table();
  Random rng = random_for(kOp, "refusals");
  cae::Tensor x = upload_tensor({2, 3, 4, 4}, rng.uniform(96, -1.0f, 1.0f));
  cae::Tensor y = poisoned_tensor({2, 3, 4, 4});
  cae::Tensor doubled = poisoned_tensor({2, 6, 4, 4});
  cae::Tensor flat = poisoned_tensor({2, 48});
  const auto refused = [&](const std::string& what, cae::Tensor& in, cae::Tensor& out, int32_t code,
                           float bias) {
    expect_refused_untouched(
        kOp, what,
        [&] { return t.channel_code(ctx().handle(), in.handle(), out.handle(), code, bias, 1); },
        {&out});
  };
  refused("code 2", x, y, 2, 0.0f);
  refused("code -1", x, y, -1, 0.0f);
  refused("bias NaN", x, y, CAE_CHANNEL_CODE_CENTRED, std::numeric_limits<float>::quiet_NaN());
  refused("bias Inf", x, y, CAE_CHANNEL_CODE_SPLIT, std::numeric_limits<float>::infinity());
  refused("centred into 2C channels", x, doubled, CAE_CHANNEL_CODE_CENTRED, 0.0f);
  refused("split into C channels", x, y, CAE_CHANNEL_CODE_SPLIT, 0.0f);
  refused("y 2-D", x, flat, CAE_CHANNEL_CODE_CENTRED, 0.0f);
  refused("x 2-D", flat, y, CAE_CHANNEL_CODE_CENTRED, 0.0f);
  refused("y the same tensor as x", x, x, CAE_CHANNEL_CODE_CENTRED, 0.0f);
}

}  // namespace

void check_channel_code() {
  if (!CAE_TABLE_HAS(&table(), channel_code)) {
    note(kOp, kOp,
         "not provided (optional, ABI 1.13): feature recipes apply the triangle and soft-threshold "
         "encoders' linear part as a 1x1 convolution with fixed weights");
    return;
  }
  SUBCASE("refusals") { guarded(kOp, "refusals", check_refusals); }
  for (const CodeCase& c : code_cases(suite().quick)) {
    const std::string label = c.label();
    SUBCASE(label.c_str()) {
      guarded(kOp, label, [&] { check_case(c, label); });
    }
  }
}

}  // namespace conformance
