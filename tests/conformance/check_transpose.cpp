// transpose (ABI 1.11, optional): y [c,r] = x [r,c] bit for bit, at shapes
// around the 32-wide tiles a device transposes in (a row, a column, tiles
// cut on both sides) and at the linear classifier's (a group of 5,632 rows
// of 1,000 features); the input left as it was; bad shapes and y == x
// refused with nothing written. A backend may answer UNSUPPORTED only for a
// matrix larger than these.
#include <doctest/doctest.h>

#include <cstdint>
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

constexpr const char* kOp = "transpose";

struct TransposeCase {
  int64_t rows, cols;
  std::string label() const {
    return "x[" + std::to_string(rows) + "," + std::to_string(cols) + "]";
  }
};

std::vector<TransposeCase> transpose_cases(bool quick) {
  std::vector<TransposeCase> cases = {{1, 1}, {1, 37}, {41, 1}, {32, 32}, {33, 65}, {257, 100}};
  if (!quick) cases.push_back({5632, 1000});
  return cases;
}

void check_shape(const TransposeCase& c, const std::string& label) {
  Random rng = random_for(kOp, label);
  const std::vector<float> values = rng.uniform(c.rows * c.cols, -1.0f, 1.0f);
  cae::Tensor x = upload_tensor({c.rows, c.cols}, values);
  cae::Tensor y = poisoned_tensor({c.cols, c.rows});
  ctx().transpose(x, y);
  std::vector<float> expected(values.size());
  for (int64_t i = 0; i < c.rows; ++i) {
    for (int64_t j = 0; j < c.cols; ++j) expected[j * c.rows + i] = values[i * c.cols + j];
  }
  expect_identical(kOp, label + ": y = x transposed", expected, download(y));
  expect_identical(kOp, label + ": x unchanged", values, download(x));
}

void check_refusals() {
  const cae_backend_table& t = table();
  Random rng = random_for(kOp, "refusals");
  cae::Tensor x = upload_tensor({5, 3}, rng.uniform(15, -1.0f, 1.0f));
  cae::Tensor square = upload_tensor({4, 4}, rng.uniform(16, -1.0f, 1.0f));
  cae::Tensor same_shape = poisoned_tensor({5, 3});
  cae::Tensor too_long = poisoned_tensor({3, 6});
  cae::Tensor flat = poisoned_tensor({15});
  const auto refused = [&](const std::string& what, const cae::Tensor& in, cae::Tensor& out) {
    expect_refused_untouched(
        kOp, what, [&] { return t.transpose(ctx().handle(), in.handle(), out.handle()); }, {&out});
  };
  refused("y [5,3] for x [5,3]", x, same_shape);
  refused("y [3,6] for x [5,3]", x, too_long);
  refused("y [15] for x [5,3]", x, flat);
  refused("y = x (a square matrix in place)", square, square);
}

}  // namespace

void check_transpose() {
  if (!CAE_TABLE_HAS(&table(), transpose)) {
    note(kOp, kOp,
         "not provided (optional, ABI 1.11): the linear classifier transposes its rows on the "
         "host and uploads them twice");
    return;
  }
  SUBCASE("refusals") { guarded(kOp, "refusals", check_refusals); }
  for (const TransposeCase& c : transpose_cases(suite().quick)) {
    const std::string label = c.label();
    SUBCASE(label.c_str()) {
      guarded(kOp, label, [&] { check_shape(c, label); });
    }
  }
}

}  // namespace conformance
