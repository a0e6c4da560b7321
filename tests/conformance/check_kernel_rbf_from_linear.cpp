// kernel_rbf_from_linear (ABI 1.10, optional): the RBF kernel made from a
// LINEAR kernel_matrix of the same rows must be, bit for bit, what
// kernel_matrix writes for RBF (the host takes one for the other within a
// C and gamma search), written apart or in place over the product, at every
// kernel shape of kernel_matrix's check and for two gammas over one product;
// bad shapes and gammas are refused with nothing written.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "checks.hpp"
#include "compare.hpp"
#include "device_data.hpp"
#include "random_data.hpp"
#include "report.hpp"
#include "shapes.hpp"
#include "suite.hpp"

namespace conformance {
namespace {

constexpr const char* kOp = "kernel_rbf_from_linear";

// Values that neither vanish nor saturate for uniform [-1, 1] features (as
// kernel_matrix's check), and a gamma four times larger.
float gamma_for(int64_t d, int factor) { return 0.75f * float(factor) / float(d); }

struct Rows {
  cae::Tensor x, y;  // y empty when it is x
  const cae::Tensor& second() const { return y ? y : x; }
};

Rows upload_rows(const KernelCase& c, Random& rng) {
  Rows rows;
  rows.x = upload_tensor({c.n, c.d}, rng.uniform(c.n * c.d, -1.0f, 1.0f));
  if (!c.same_xy) rows.y = upload_tensor({c.m, c.d}, rng.uniform(c.m * c.d, -1.0f, 1.0f));
  return rows;
}

void check_shape(const KernelCase& c, const std::string& label) {
  Random rng = random_for(kOp, label);
  const Rows rows = upload_rows(c, rng);
  cae::Tensor product = poisoned_tensor({c.n, c.m});
  ctx().kernel_matrix(rows.x, rows.second(), product, CAE_KERNEL_LINEAR, 0.0f);
  for (const int factor : {1, 4}) {
    const float gamma = gamma_for(c.d, factor);
    const std::string what = label + " gamma " + sci(gamma);
    cae::Tensor direct = poisoned_tensor({c.n, c.m});
    ctx().kernel_matrix(rows.x, rows.second(), direct, CAE_KERNEL_RBF, gamma);
    cae::Tensor made = poisoned_tensor({c.n, c.m});
    ctx().kernel_rbf_from_linear(rows.x, rows.second(), product, made, gamma);
    expect_identical(kOp, what + ": from the product against kernel_matrix", download(direct),
                     download(made));
  }
  // In place: the product itself becomes the kernel.
  const float gamma = gamma_for(c.d, 1);
  cae::Tensor direct = poisoned_tensor({c.n, c.m});
  ctx().kernel_matrix(rows.x, rows.second(), direct, CAE_KERNEL_RBF, gamma);
  ctx().kernel_rbf_from_linear(rows.x, rows.second(), product, product, gamma);
  expect_identical(kOp, label + ": in place against kernel_matrix", download(direct),
                   download(product));
}

void check_refusals() {
  const cae_backend_table& t = table();
  const int64_t n = 5, m = 4, d = 3;
  Random rng = random_for(kOp, "refusals");
  cae::Tensor x = upload_tensor({n, d}, rng.uniform(n * d, -1.0f, 1.0f));
  cae::Tensor y = upload_tensor({m, d}, rng.uniform(m * d, -1.0f, 1.0f));
  cae::Tensor wide_y = upload_tensor({m, d + 1}, rng.uniform(m * (d + 1), -1.0f, 1.0f));
  cae::Tensor product = upload_tensor({n, m}, rng.uniform(n * m, -1.0f, 1.0f));
  cae::Tensor wrong_product = upload_tensor({m, n}, rng.uniform(n * m, -1.0f, 1.0f));
  cae::Tensor k = poisoned_tensor({n, m});
  const auto refused = [&](const std::string& what, cae_tensor yy, cae_tensor linear, float gamma) {
    expect_refused_untouched(kOp, what,
                             [&] {
                               return t.kernel_rbf_from_linear(ctx().handle(), x.handle(), yy,
                                                               linear, k.handle(), gamma);
                             },
                             {&k});
  };
  refused("gamma 0", y.handle(), product.handle(), 0.0f);
  refused("gamma -1", y.handle(), product.handle(), -1.0f);
  refused("gamma NaN", y.handle(), product.handle(), std::numeric_limits<float>::quiet_NaN());
  refused("gamma +inf", y.handle(), product.handle(), std::numeric_limits<float>::infinity());
  refused("linear [4,5] for [5,4]", y.handle(), wrong_product.handle(), 1.0f);
  refused("y [4,4] for x [5,3]", wide_y.handle(), product.handle(), 1.0f);
  refused("linear NULL", y.handle(), nullptr, 1.0f);
}

}  // namespace

void check_kernel_rbf_from_linear() {
  if (!CAE_TABLE_HAS(&table(), kernel_rbf_from_linear)) {
    note(kOp, kOp,
         "not provided (optional, ABI 1.10): a search computes each gamma's kernel in full");
    return;
  }
  SUBCASE("refusals") { guarded(kOp, "refusals", check_refusals); }
  for (const KernelCase& c : kernel_cases(suite().quick)) {
    const std::string label = c.label();
    SUBCASE(label.c_str()) {
      guarded(kOp, label, [&] { check_shape(c, label); });
    }
  }
}

}  // namespace conformance
