// kernel_matrix: linear and RBF kernels against the reference, at the SVM
// stage's feature size, with y the same tensor as x (allowed by the ABI),
// and determinism.
#include <doctest/doctest.h>

#include "checks.hpp"
#include "compare.hpp"
#include "determinism.hpp"
#include "error_bounds.hpp"
#include "random_data.hpp"
#include "report.hpp"
#include "shapes.hpp"
#include "suite.hpp"

namespace conformance {
namespace {

// exp(-gamma ||x - y||^2) near exp(-0.5) for uniform [-1, 1] features, where
// E (x_k - y_k)^2 = 2/3: values that neither vanish nor saturate.
float rbf_gamma(int64_t d) { return 0.75f / float(d); }

struct KernelInputs {
  std::vector<float> x, y;  // y is empty when it is x
};

std::vector<float> run(const KernelCase& c, const KernelInputs& in, cae_kernel_kind kind) {
  cae::Tensor x = upload_tensor({c.n, c.d}, in.x);
  cae::Tensor y;
  if (!c.same_xy) y = upload_tensor({c.m, c.d}, in.y);
  cae::Tensor k = poisoned_tensor({c.n, c.m});
  ctx().kernel_matrix(x, c.same_xy ? x : y, k, kind, rbf_gamma(c.d));
  return download(k);
}

KernelInputs random_inputs(Random& rng, const KernelCase& c) {
  KernelInputs in{rng.uniform(c.n * c.d, -1.0f, 1.0f), {}};
  if (!c.same_xy) in.y = rng.uniform(c.m * c.d, -1.0f, 1.0f);
  return in;
}

void check(const KernelCase& c, cae_kernel_kind kind, const std::string& label) {
  Random rng = random_for("kernel_matrix", label);
  const KernelInputs in = random_inputs(rng, c);
  const cae_ref::KernelKind ref_kind =
      kind == CAE_KERNEL_LINEAR ? cae_ref::KernelKind::linear : cae_ref::KernelKind::rbf;
  const cae_ref::Vec x = widen(in.x), y = widen(c.same_xy ? in.x : in.y);
  const cae_ref::Vec want = cae_ref::kernel_matrix(x, c.n, y, c.m, c.d, ref_kind, rbf_gamma(c.d));
  const cae_ref::Vec scale = bounds::kernel(x, c.n, y, c.m, c.d, ref_kind, rbf_gamma(c.d), want);
  expect_within("kernel_matrix", label, run(c, in, kind), want, scale, product_tolerance(c.d),
                {c.n, c.m});
}

std::string kind_label(cae_kernel_kind kind, int64_t d) {
  return kind == CAE_KERNEL_LINEAR ? "linear" : "rbf gamma " + sci(rbf_gamma(d));
}

}  // namespace

void check_kernel_matrix() {
  const char* op = "kernel_matrix";
  if (!require_member(op, CAE_TABLE_HAS(&table(), kernel_matrix))) return;
  for (const KernelCase& c : kernel_cases(suite().quick)) {
    for (cae_kernel_kind kind : {CAE_KERNEL_LINEAR, CAE_KERNEL_RBF}) {
      const std::string label = c.label() + " " + kind_label(kind, c.d);
      SUBCASE(label.c_str()) {
        guarded(op, label, [&] { check(c, kind, label); });
      }
    }
  }
  SUBCASE("determinism") {
    KernelCase c = kernel_cases(suite().quick).back();
    c.same_xy = false;
    Random rng = random_for(op, "determinism");
    const KernelInputs in = random_inputs(rng, c);
    expect_deterministic(op, c.label(), [&] {
      return Outputs{{"linear", run(c, in, CAE_KERNEL_LINEAR)},
                     {"rbf", run(c, in, CAE_KERNEL_RBF)}};
    });
  }
}

}  // namespace conformance
