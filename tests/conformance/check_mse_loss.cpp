// mse_loss: value and gradient against the reference (up to a training batch
// of 196,608 elements, where a float32 running sum is not accurate enough),
// grad == NULL, target of another shape with the same count, and determinism.
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

struct MseCase {
  Dims pred, target;
  bool with_grad;
  std::string label() const {
    std::string text = "pred" + dims_str(pred);
    if (target != pred) text += " target" + dims_str(target);
    return text + (with_grad ? "" : " grad=NULL");
  }
};

std::vector<MseCase> mse_cases(bool quick) {
  std::vector<MseCase> cases;
  for (const Dims& dims : elementwise_shapes(quick)) cases.push_back({dims, dims, true});
  const Dims shape = {3, 5, 9, 12};
  cases.push_back({shape, shape, false});
  cases.push_back({shape, {15, 108}, true});  // same element count, other shape
  return cases;
}

struct MseOutputs {
  std::vector<float> loss, grad;
};

MseOutputs run(const MseCase& c, const std::vector<float>& p, const std::vector<float>& t) {
  cae::Tensor pred = upload_tensor(c.pred, p), target = upload_tensor(c.target, t);
  cae::Tensor loss = poisoned_tensor({1});
  cae::Tensor grad;
  if (c.with_grad) grad = poisoned_tensor(c.pred);
  ctx().mse_loss(pred, target, loss, c.with_grad ? &grad : nullptr);
  return {download(loss), c.with_grad ? download(grad) : std::vector<float>{}};
}

void check(const MseCase& c, const std::string& label) {
  Random rng = random_for("mse_loss", label);
  const std::vector<float> p = rng.uniform(count_of(c.pred), -1.0f, 1.0f);
  const std::vector<float> t = rng.uniform(count_of(c.pred), -1.0f, 1.0f);
  const MseOutputs got = run(c, p, t);
  const cae_ref::MseResult want = cae_ref::mse_loss(widen(p), widen(t));
  const bounds::MseScale scale = bounds::mse(widen(p), widen(t));
  expect_within("mse_loss", label + " loss", got.loss, {want.loss}, {scale.loss},
                reduction_tolerance(count_of(c.pred)), {1});
  if (c.with_grad) {
    expect_within("mse_loss", label + " grad", got.grad, want.grad, scale.grad,
                  elementwise_tolerance(), c.pred);
  }
}

}  // namespace

void check_mse_loss() {
  const char* op = "mse_loss";
  if (!require_member(op, CAE_TABLE_HAS(&table(), mse_loss))) return;
  for (const MseCase& c : mse_cases(suite().quick)) {
    const std::string label = c.label();
    SUBCASE(label.c_str()) {
      guarded(op, label, [&] { check(c, label); });
    }
  }
  SUBCASE("determinism") {
    const Dims dims = elementwise_shapes(suite().quick).back();
    const MseCase c{dims, dims, true};
    Random rng = random_for(op, "determinism");
    const std::vector<float> p = rng.uniform(count_of(dims), -1.0f, 1.0f);
    const std::vector<float> t = rng.uniform(count_of(dims), -1.0f, 1.0f);
    expect_deterministic(op, c.label(), [&] {
      const MseOutputs out = run(c, p, t);
      return Outputs{{"loss", out.loss}, {"grad", out.grad}};
    });
  }
}

}  // namespace conformance
