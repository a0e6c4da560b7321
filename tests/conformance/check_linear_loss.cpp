// linear_loss (ABI 1.11, optional): the linear classifier's residuals and
// per-block loss sums against a float64 reference computed from the same
// float inputs by the header's definitions, for both kinds, at shapes around
// the 256-row block and past it, two scales, and rows of large scores (the
// softmax's shift by its maximum); every output written, the inputs left as
// they were, the sums as a float nearest the value and the rest, the same
// sums on every call (they are summed in a fixed order); a target that is no
// class index makes its row's residuals and its block's sums NaN and no
// other's; bad shapes, kinds, scales and outputs that are inputs are refused
// with nothing written. A backend whose declared options turn the member off
// answers UNSUPPORTED, and then on every call.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "checks.hpp"
#include "compare.hpp"
#include "device_data.hpp"
#include "error_bounds.hpp"
#include "random_data.hpp"
#include "report.hpp"
#include "suite.hpp"

namespace conformance {
namespace {

constexpr const char* kOp = "linear_loss";
constexpr int64_t kBlockRows = CAE_LINEAR_LOSS_BLOCK_ROWS;
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

// The sums are computed in double and summed in a fixed order: the header
// promises 1e-10 of the magnitude of the terms summed. The floor keeps a
// block whose terms all vanish (a one-class problem) from asking for an
// exact zero of rounding that the backend may order differently.
constexpr double kSumTolerance = 1e-10;
constexpr double kSumFloor = 1e-30;

int64_t blocks_of(int64_t n) { return (n + kBlockRows - 1) / kBlockRows; }
Dims sums_dims(int64_t n, int64_t k) { return {blocks_of(n), k + 1, 2}; }

const char* kind_name(int32_t kind) {
  return kind == CAE_LINEAR_LOSS_CROSS_ENTROPY ? "cross-entropy" : "squared hinge";
}

bool is_class_index(float y, int64_t k) {
  return std::isfinite(y) && y >= 0.0f && double(y) < double(k) && y == std::floor(y);
}

// ---- inputs ------------------------------------------------------------------

struct Inputs {
  int64_t n = 0, k = 0;
  std::vector<float> scores, bias, targets;  // [n,k], [k], [n]
};

// Scores of a few units either way (softmaxes neither one-hot nor flat,
// hinges both active and inactive), and two rows of +-80: one of random
// signs and one where the target leads every other class by 160, whose
// loss and residuals underflow unless the softmax subtracts its maximum.
Inputs make_inputs(int64_t n, int64_t k, Random& rng) {
  Inputs in{n, k, {}, {}, {}};
  std::normal_distribution<float> spread(0.0f, 3.0f), offset(0.0f, 1.0f);
  for (int64_t i = 0; i < n * k; ++i) in.scores.push_back(spread(rng.engine()));
  for (int64_t c = 0; c < k; ++c) in.bias.push_back(offset(rng.engine()));
  for (int64_t i = 0; i < n; ++i) in.targets.push_back(float(rng.index(k)));
  const auto score = [&](int64_t i, int64_t c) -> float& { return in.scores[size_t(i * k + c)]; };
  for (int64_t c = 0; c < k; ++c) score(n / 2, c) = rng.index(2) ? 80.0f : -80.0f;
  if (n >= 3) {
    const int64_t y = int64_t(in.targets[size_t(n - 1)]);
    for (int64_t c = 0; c < k; ++c) score(n - 1, c) = c == y ? 80.0f : -80.0f;
  }
  return in;
}

struct OnDevice {
  cae::Tensor scores, bias, targets;
};

OnDevice upload_inputs(const Inputs& in) {
  return {upload_tensor({in.n, in.k}, in.scores), upload_tensor({in.k}, in.bias),
          upload_tensor({in.n}, in.targets)};
}

// ---- reference -----------------------------------------------------------------

// One row's gradient and loss, with the magnitude of the terms each is made
// of (what its rounding error is proportional to).
struct RowTerms {
  std::vector<double> g, g_magnitude;
  double loss = 0.0, loss_magnitude = 0.0;
};

// s_c = scores + bias rounded to float, as the header defines it.
std::vector<double> shifted_scores(const Inputs& in, int64_t i) {
  std::vector<double> s(size_t(in.k));
  for (int64_t c = 0; c < in.k; ++c) {
    const float sum = in.scores[size_t(i * in.k + c)] + in.bias[size_t(c)];
    s[size_t(c)] = double(sum);
  }
  return s;
}

// The loss is log(sum) - (s_y - m), two non-negative terms that cancel when
// the target leads, and g_y = p_y - 1 cancels the same way: their magnitudes
// are those of the terms, not of the result.
RowTerms cross_entropy(const std::vector<double>& s, int64_t y) {
  const size_t k = s.size();
  const double m = *std::max_element(s.begin(), s.end());
  double total = 0.0;
  for (double v : s) total += std::exp(v - m);
  RowTerms row;
  row.g.resize(k);
  row.g_magnitude.resize(k);
  for (size_t c = 0; c < k; ++c) {
    const double p = std::exp(s[c] - m) / total;
    const double one = int64_t(c) == y ? 1.0 : 0.0;
    row.g[c] = p - one;
    row.g_magnitude[c] = p + one;
  }
  row.loss = std::log(total) - (s[size_t(y)] - m);
  row.loss_magnitude = std::log(total) + (m - s[size_t(y)]);
  return row;
}

// 1 - t s is exact in double for a float s, so every term is one rounding
// of itself: its magnitude is its absolute value.
RowTerms squared_hinge(const std::vector<double>& s, int64_t y) {
  const size_t k = s.size();
  RowTerms row;
  row.g.resize(k);
  row.g_magnitude.resize(k);
  for (size_t c = 0; c < k; ++c) {
    const double t = int64_t(c) == y ? 1.0 : -1.0;
    const double h = std::max(0.0, 1.0 - t * s[c]);
    row.g[c] = -2.0 * t * h;
    row.g_magnitude[c] = 2.0 * h;
    row.loss += h * h;
  }
  row.loss_magnitude = row.loss;
  return row;
}

struct Reference {
  int64_t n = 0, k = 0;
  cae_ref::Vec residuals, residual_scale;  // [k,n]
  cae_ref::Vec sums, sum_magnitude;        // [blocks, k+1]
  std::vector<bool> row_valid, block_valid;
};

// The bound of a float residual: float rounding of terms of magnitude 1 for
// the cross-entropy (p and [c == y] lie in [0, 1]) and 2 (1 + |s_c|) for the
// hinge (2 (1 - t s), whose float evaluation rounds 1 and s).
double residual_magnitude(int32_t kind, double s_c) {
  return kind == CAE_LINEAR_LOSS_CROSS_ENTROPY ? 1.0 : 2.0 * (1.0 + std::abs(s_c));
}

void add_row(Reference& ref, const Inputs& in, int64_t i, int32_t kind, double scale) {
  const std::vector<double> s = shifted_scores(in, i);
  const int64_t y = int64_t(in.targets[size_t(i)]);
  const RowTerms row =
      kind == CAE_LINEAR_LOSS_CROSS_ENTROPY ? cross_entropy(s, y) : squared_hinge(s, y);
  const size_t base = size_t((i / kBlockRows) * (in.k + 1));
  for (int64_t c = 0; c < in.k; ++c) {
    const size_t at = size_t(c * in.n + i);
    ref.residuals[at] = scale * row.g[size_t(c)];
    ref.residual_scale[at] = scale * residual_magnitude(kind, s[size_t(c)]);
    ref.sums[base + size_t(c)] += scale * row.g[size_t(c)];
    ref.sum_magnitude[base + size_t(c)] += scale * row.g_magnitude[size_t(c)];
  }
  ref.sums[base + size_t(in.k)] += row.loss;
  ref.sum_magnitude[base + size_t(in.k)] += row.loss_magnitude;
}

// Rows whose target is no class index have no reference: their residuals and
// their block's sums must be NaN, checked apart.
Reference reference(const Inputs& in, int32_t kind, float scale) {
  Reference ref;
  ref.n = in.n;
  ref.k = in.k;
  ref.residuals.assign(size_t(in.k * in.n), 0.0);
  ref.residual_scale.assign(size_t(in.k * in.n), 0.0);
  ref.sums.assign(size_t(blocks_of(in.n) * (in.k + 1)), 0.0);
  ref.sum_magnitude.assign(ref.sums.size(), 0.0);
  ref.row_valid.assign(size_t(in.n), true);
  ref.block_valid.assign(size_t(blocks_of(in.n)), true);
  for (int64_t i = 0; i < in.n; ++i) {
    if (is_class_index(in.targets[size_t(i)], in.k)) {
      add_row(ref, in, i, kind, double(scale));
    } else {
      ref.row_valid[size_t(i)] = false;
      ref.block_valid[size_t(i / kBlockRows)] = false;
    }
  }
  return ref;
}

// ---- the call ----------------------------------------------------------------

struct Call {
  cae_tensor scores, bias, targets;
  int32_t kind;
  float scale;
  cae_tensor residuals, sums;
};

cae_status call(const Call& c) {
  return table().linear_loss(ctx().handle(), c.scores, c.bias, c.targets, c.kind, c.scale,
                             c.residuals, c.sums);
}

struct Outputs {
  std::vector<float> residuals, sums;
};

// An output tensor starting as the suite's poison, or as a finite value where
// the check looks for NaNs written.
cae::Tensor output_tensor(const Dims& dims, bool finite_start) {
  if (!finite_start) return poisoned_tensor(dims);
  return upload_tensor(dims, std::vector<float>(size_t(count_of(dims)), 1e30f));
}

// One call that must succeed.
Outputs run(const OnDevice& d, const Inputs& in, int32_t kind, float scale,
            bool finite_start = false) {
  cae::Tensor residuals = output_tensor({in.k, in.n}, finite_start);
  cae::Tensor sums = output_tensor(sums_dims(in.n, in.k), finite_start);
  ctx().check(call({d.scores.handle(), d.bias.handle(), d.targets.handle(), kind, scale,
                    residuals.handle(), sums.handle()}),
              kOp);
  return {download(residuals), download(sums)};
}

// ---- verdicts ------------------------------------------------------------------

std::string exact(double value) {
  char text[40];
  std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

// Whether hi is a float nearest to hi + lo. Ties either way: the backend
// rounded hi from the value itself, and lo, the rest rounded, can come back
// as exactly half an ulp of hi when the rest was just under it.
bool hi_is_nearest(float hi, float lo) {
  const double value = double(hi) + double(lo);
  if (!std::isfinite(value)) return false;
  if (value == double(hi)) return true;
  const float neighbour = std::nextafter(hi, value > double(hi) ? kInf : -kInf);
  return std::abs(value - double(hi)) <= std::abs(value - double(neighbour));
}

// Rows with no class: all k residuals NaN. Their elements are then set to the
// reference's 0 so that the comparison of the others can run over the whole
// tensor and name elements by their place in it.
void expect_nan_rows(const std::string& label, std::vector<float>& got, const Reference& ref) {
  int64_t rows = 0, not_nan = 0, first = -1;
  for (int64_t i = 0; i < ref.n; ++i) {
    if (ref.row_valid[size_t(i)]) continue;
    ++rows;
    for (int64_t c = 0; c < ref.k; ++c) {
      float& v = got[size_t(c * ref.n + i)];
      if (!std::isnan(v) && not_nan++ == 0) first = c * ref.n + i;
      v = 0.0f;
    }
  }
  if (rows == 0) return;
  record(not_nan == 0, kOp, label + " residuals of those rows",
         not_nan == 0 ? "NaN" : std::to_string(not_nan) + " not NaN");
  if (not_nan > 0) {
    explain("first at [" + std::to_string(first / ref.n) + "," + std::to_string(first % ref.n) +
            "] = " + exact(got[size_t(first)]) + " before the check zeroed it");
  }
}

void expect_residuals(const std::string& label, std::vector<float> got, const Reference& ref) {
  expect_nan_rows(label, got, ref);
  expect_within(kOp, label + " residuals", got, ref.residuals, ref.residual_scale,
                elementwise_tolerance(), {ref.k, ref.n});
}

double pair_value(const std::vector<float>& sums, size_t at) {
  return double(sums[2 * at]) + double(sums[2 * at + 1]);
}

std::string pair_text(const std::vector<float>& sums, size_t at, int64_t k) {
  return "[" + std::to_string(at / size_t(k + 1)) + "," + std::to_string(at % size_t(k + 1)) +
         "] hi " + exact(sums[2 * at]) + " lo " + exact(sums[2 * at + 1]);
}

// Blocks holding a row with no class: every [b,c] value NaN.
void expect_nan_blocks(const std::string& label, const std::vector<float>& got,
                       const Reference& ref) {
  int64_t blocks = 0, not_nan = 0;
  size_t first = 0;
  const size_t width = size_t(ref.k + 1);
  for (size_t b = 0; b < ref.block_valid.size(); ++b) {
    if (ref.block_valid[b]) continue;
    ++blocks;
    for (size_t at = b * width; at < (b + 1) * width; ++at) {
      if (!std::isnan(pair_value(got, at)) && not_nan++ == 0) first = at;
    }
  }
  if (blocks == 0) return;
  record(not_nan == 0, kOp, label + " sums of their blocks",
         not_nan == 0 ? "NaN" : std::to_string(not_nan) + " not NaN");
  if (not_nan > 0) explain("first at " + pair_text(got, first, ref.k));
}

// The other blocks: hi + lo within kSumTolerance of the magnitude of the
// terms summed, and hi the float nearest that value.
void expect_sums(const std::string& label, const std::vector<float>& got, const Reference& ref) {
  expect_nan_blocks(label, got, ref);
  const size_t width = size_t(ref.k + 1);
  size_t over = 0, not_finite = 0, not_nearest = 0, worst = 0, first_bad = 0, first_far = 0;
  double worst_ratio = 0.0;
  for (size_t at = 0; at < ref.sums.size(); ++at) {
    if (!ref.block_valid[at / width]) continue;
    const double value = pair_value(got, at);
    if (!std::isfinite(value)) {
      if (not_finite++ == 0) first_bad = at;
      continue;
    }
    if (!hi_is_nearest(got[2 * at], got[2 * at + 1]) && not_nearest++ == 0) first_far = at;
    const double ratio =
        std::abs(value - ref.sums[at]) / (kSumTolerance * ref.sum_magnitude[at] + kSumFloor);
    if (ratio > 1.0) ++over;
    if (ratio >= worst_ratio) {
      worst_ratio = ratio;
      worst = at;
    }
  }
  const bool ok = over == 0 && not_finite == 0 && not_nearest == 0;
  const double shown = not_finite > 0 ? std::numeric_limits<double>::infinity() : worst_ratio;
  record(ok, kOp, label + " sums",
         "err/bound " + sci(shown) + " <= 1 (tol " + sci(kSumTolerance) + ")" +
             (not_nearest > 0 ? ", hi not nearest" : ""),
         shown);
  if (not_finite > 0) {
    explain(std::to_string(not_finite) + " values NaN/Inf (unwritten?), first at " +
            pair_text(got, first_bad, ref.k) + ", expected " + exact(ref.sums[first_bad]));
  }
  if (over > 0) {
    explain(std::to_string(over) + " values out of bound; worst at " +
            pair_text(got, worst, ref.k) + ": got " + exact(pair_value(got, worst)) +
            ", expected " + exact(ref.sums[worst]) + ", bound " +
            sci(kSumTolerance * ref.sum_magnitude[worst] + kSumFloor));
  }
  if (not_nearest > 0) {
    explain(std::to_string(not_nearest) + " hi not the float nearest hi + lo, first at " +
            pair_text(got, first_far, ref.k));
  }
}

std::vector<float> joined(const std::vector<std::vector<float>>& parts) {
  std::vector<float> all;
  for (const std::vector<float>& part : parts) all.insert(all.end(), part.begin(), part.end());
  return all;
}

void expect_inputs_unchanged(const std::string& label, const Inputs& in, const OnDevice& d) {
  expect_identical(kOp, label + " inputs unchanged", joined({in.scores, in.bias, in.targets}),
                   joined({download(d.scores), download(d.bias), download(d.targets)}));
}

// ---- cases -------------------------------------------------------------------

struct Scale {
  float value;
  const char* text;
};

// A mean over a training set of 45,000 rows, and no scaling at all.
const Scale kScales[] = {{1.0f / 45000.0f, "1/45000"}, {1.0f, "1"}};

struct Shape {
  int64_t n, k;
};

// One row, one class; a block's edges (255, 256, 257); several blocks of a
// few or many classes; and a training set's share of 8 devices.
const Shape kShapes[] = {{1, 1},    {1, 2},   {3, 10},     {255, 10}, {256, 10},
                         {257, 10}, {600, 3}, {1000, 100}, {5632, 10}};

std::string label_of(const Shape& shape, int32_t kind, const Scale& scale) {
  return "scores" + dims_str({shape.n, shape.k}) + " " + kind_name(kind) + " scale " + scale.text;
}

void check_values(const Shape& shape, int32_t kind, const Scale& scale, const std::string& label) {
  Random rng = random_for(kOp, label);
  const Inputs in = make_inputs(shape.n, shape.k, rng);
  const OnDevice d = upload_inputs(in);
  const Outputs got = run(d, in, kind, scale.value);
  const Reference ref = reference(in, kind, scale.value);
  expect_residuals(label, got.residuals, ref);
  expect_sums(label, got.sums, ref);
  expect_inputs_unchanged(label, in, d);
}

// Targets -1, k, 2.5, NaN and +inf, each in a block of its own, between
// blocks with none. The outputs start finite, so an element left unwritten
// cannot pass for a NaN written.
void check_not_a_class(int32_t kind, const std::string& label) {
  const int64_t k = 10, n = 10 * kBlockRows + 7;
  Random rng = random_for(kOp, label);
  Inputs in = make_inputs(n, k, rng);
  const float bad[] = {-1.0f, float(k), 2.5f, kNaN, kInf};
  for (size_t j = 0; j < std::size(bad); ++j) {
    in.targets[size_t(int64_t(2 * j) * kBlockRows + 17 * int64_t(j) + 3)] = bad[j];
  }
  const OnDevice d = upload_inputs(in);
  const Outputs got = run(d, in, kind, kScales[0].value, true);
  const Reference ref = reference(in, kind, kScales[0].value);
  expect_residuals(label, got.residuals, ref);
  expect_sums(label, got.sums, ref);
}

// The sums are summed in a fixed order: the same inputs give the same bits on
// every call, whatever the device declares of its other ops. Three calls, so
// that results alternating from call to call show too.
void check_repeated(const std::string& label) {
  const Shape shape = kShapes[std::size(kShapes) - 1];
  Random rng = random_for(kOp, label);
  const Inputs in = make_inputs(shape.n, shape.k, rng);
  const OnDevice d = upload_inputs(in);
  const int32_t kind = CAE_LINEAR_LOSS_CROSS_ENTROPY;
  const Outputs first = run(d, in, kind, kScales[0].value);
  for (int repeat = 2; repeat <= 3; ++repeat) {
    const Outputs again = run(d, in, kind, kScales[0].value);
    const std::string what = label + " call " + std::to_string(repeat) + " = call 1";
    expect_identical(kOp, what + ": sums", first.sums, again.sums);
    expect_identical(kOp, what + ": residuals", first.residuals, again.residuals);
  }
}

// ---- refusals ----------------------------------------------------------------

// `c` is refused with a message, and none of `tensors` (every tensor the
// call could reach) changes.
void expect_refused(const std::string& what, const Call& c,
                    const std::vector<const cae::Tensor*>& tensors) {
  expect_refused_untouched(
      kOp, what, [&] { return call(c); }, tensors);
}

// Shapes, kinds and scales, on two blocks of four classes.
void check_bad_arguments() {
  const int64_t n = 300, k = 4;
  Random rng = random_for(kOp, "refusals");
  const Inputs in = make_inputs(n, k, rng);
  const OnDevice d = upload_inputs(in);
  cae::Tensor residuals = poisoned_tensor({k, n}), sums = poisoned_tensor(sums_dims(n, k));
  cae::Tensor untransposed = poisoned_tensor({n, k}), wide = poisoned_tensor({k, n + 1});
  cae::Tensor more_blocks = poisoned_tensor({3, k + 1, 2}),
              fewer_blocks = poisoned_tensor({1, k + 1, 2});
  cae::Tensor no_loss_row = poisoned_tensor({2, k, 2});
  cae::Tensor long_bias = upload_tensor({k + 1}, std::vector<float>(size_t(k + 1), 0.5f));
  cae::Tensor short_targets = upload_tensor({n - 1}, std::vector<float>(size_t(n - 1), 1.0f));
  const std::vector<const cae::Tensor*> all = {
      &d.scores, &d.bias,      &d.targets,    &residuals,   &sums,      &untransposed,
      &wide,     &more_blocks, &fewer_blocks, &no_loss_row, &long_bias, &short_targets};
  const Call valid = {
      d.scores.handle(),  d.bias.handle(), d.targets.handle(), CAE_LINEAR_LOSS_CROSS_ENTROPY, 1.0f,
      residuals.handle(), sums.handle()};
  const auto with = [&](auto change) {
    Call c = valid;
    change(c);
    return c;
  };
  expect_refused("residuals [300,4] for [4,300]",
                 with([&](Call& c) { c.residuals = untransposed.handle(); }), all);
  expect_refused("residuals [4,301] for [4,300]",
                 with([&](Call& c) { c.residuals = wide.handle(); }), all);
  expect_refused("sums [3,5,2] for 2 blocks", with([&](Call& c) { c.sums = more_blocks.handle(); }),
                 all);
  expect_refused("sums [1,5,2] for 2 blocks",
                 with([&](Call& c) { c.sums = fewer_blocks.handle(); }), all);
  expect_refused("sums [2,4,2] for 4 classes",
                 with([&](Call& c) { c.sums = no_loss_row.handle(); }), all);
  expect_refused("bias [5] for 4 classes", with([&](Call& c) { c.bias = long_bias.handle(); }),
                 all);
  expect_refused("targets [299] for 300 rows",
                 with([&](Call& c) { c.targets = short_targets.handle(); }), all);
  expect_refused("kind 2", with([](Call& c) { c.kind = 2; }), all);
  expect_refused("kind -1", with([](Call& c) { c.kind = -1; }), all);
  expect_refused("scale 0", with([](Call& c) { c.scale = 0.0f; }), all);
  expect_refused("scale -1", with([](Call& c) { c.scale = -1.0f; }), all);
  expect_refused("scale NaN", with([](Call& c) { c.scale = kNaN; }), all);
  expect_refused("scale +inf", with([](Call& c) { c.scale = kInf; }), all);
}

// Outputs that are inputs. Four rows of four classes: the scores [4,4] have
// the residuals' shape, so only the rule against aliasing refuses them. One
// class of four rows: targets, scores and sums all hold four floats, so a
// backend that compares element counts alone cannot tell them apart.
void check_aliased_outputs() {
  Random rng = random_for(kOp, "aliased outputs");
  const Inputs square = make_inputs(4, 4, rng);
  const OnDevice s = upload_inputs(square);
  cae::Tensor s_sums = poisoned_tensor(sums_dims(4, 4));
  expect_refused("residuals are the scores",
                 {s.scores.handle(), s.bias.handle(), s.targets.handle(),
                  CAE_LINEAR_LOSS_CROSS_ENTROPY, 1.0f, s.scores.handle(), s_sums.handle()},
                 {&s.scores, &s.bias, &s.targets, &s_sums});
  const Inputs narrow = make_inputs(4, 1, rng);
  const OnDevice d = upload_inputs(narrow);
  cae::Tensor residuals = poisoned_tensor({1, 4}), sums = poisoned_tensor(sums_dims(4, 1));
  const std::vector<const cae::Tensor*> all = {&d.scores, &d.bias, &d.targets, &residuals, &sums};
  const Call valid = {
      d.scores.handle(),  d.bias.handle(), d.targets.handle(), CAE_LINEAR_LOSS_SQUARED_HINGE, 1.0f,
      residuals.handle(), sums.handle()};
  Call c = valid;
  c.sums = d.targets.handle();
  expect_refused("sums are the targets", c, all);
  c = valid;
  c.sums = d.scores.handle();
  expect_refused("sums are the scores", c, all);
  c = valid;
  c.residuals = d.targets.handle();
  expect_refused("residuals are the targets", c, all);
}

// ---- the member switched off -----------------------------------------------

// A call on fresh inputs of `shape`; its status only.
cae_status status_of_call(const Shape& shape, int32_t kind, const std::string& what) {
  Random rng = random_for(kOp, what);
  const Inputs in = make_inputs(shape.n, shape.k, rng);
  const OnDevice d = upload_inputs(in);
  cae::Tensor residuals = poisoned_tensor({shape.k, shape.n});
  cae::Tensor sums = poisoned_tensor(sums_dims(shape.n, shape.k));
  return call({d.scores.handle(), d.bias.handle(), d.targets.handle(), kind, 1.0f,
               residuals.handle(), sums.handle()});
}

cae_status first_call() {
  return status_of_call({3, 10}, CAE_LINEAR_LOSS_CROSS_ENTROPY, "first call");
}

// An option turns the member off for the context: every later call, of
// either kind and any shape, answers the same.
void check_unsupported_throughout() {
  int calls = 0, other = 0;
  cae_status answer = CAE_STATUS_UNSUPPORTED;
  for (const int32_t kind : {CAE_LINEAR_LOSS_CROSS_ENTROPY, CAE_LINEAR_LOSS_SQUARED_HINGE}) {
    for (const Shape& shape : {Shape{3, 10}, Shape{257, 10}}) {
      const cae_status status = status_of_call(shape, kind, "unsupported");
      ++calls;
      if (status != CAE_STATUS_UNSUPPORTED && other++ == 0) answer = status;
    }
  }
  record(other == 0, kOp, "unsupported on every call",
         other == 0 ? std::to_string(calls) + " calls answered UNSUPPORTED"
                    : std::to_string(other) + " of " + std::to_string(calls) + " answered " +
                          cae::status_name(answer));
}

}  // namespace

void check_linear_loss() {
  if (!CAE_TABLE_HAS(&table(), linear_loss)) {
    note(
        kOp, kOp,
        "not provided (optional, ABI 1.11): the linear classifier computes its losses on the host");
    return;
  }
  cae_status first = CAE_STATUS_OK;
  bool called = false;
  guarded(kOp, "first call", [&] {
    first = first_call();
    called = true;
  });
  if (!called) return;
  if (first == CAE_STATUS_UNSUPPORTED) {
    note(kOp, kOp, "unsupported (a declared option turns it off): the host computes the losses");
    guarded(kOp, "unsupported on every call", check_unsupported_throughout);
    return;
  }
  if (first != CAE_STATUS_OK) {
    record(false, kOp, "first call", std::string("answered ") + cae::status_name(first));
    const char* message = table().last_error(ctx().handle());
    explain(message != nullptr && message[0] != '\0' ? message : "(no message)");
    return;
  }
  SUBCASE("refusals") { guarded(kOp, "refusals", check_bad_arguments); }
  SUBCASE("aliased outputs") { guarded(kOp, "aliased outputs", check_aliased_outputs); }
  for (const int32_t kind : {CAE_LINEAR_LOSS_CROSS_ENTROPY, CAE_LINEAR_LOSS_SQUARED_HINGE}) {
    for (const Shape& shape : kShapes) {
      for (const Scale& scale : kScales) {
        const std::string label = label_of(shape, kind, scale);
        SUBCASE(label.c_str()) {
          guarded(kOp, label, [&] { check_values(shape, kind, scale, label); });
        }
      }
    }
    const std::string label = std::string("targets no class, ") + kind_name(kind);
    SUBCASE(label.c_str()) {
      guarded(kOp, label, [&] { check_not_a_class(kind, label); });
    }
  }
  SUBCASE("repeated") {
    guarded(kOp, "repeated", [] { check_repeated("repeated"); });
  }
}

}  // namespace conformance
