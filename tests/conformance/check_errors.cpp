// Error handling: arguments that break an op's contract are refused with
// CAE_STATUS_INVALID_ARGUMENT and a message (last_error), and the context
// keeps working afterwards. The calls go to the table directly, so that what
// is checked is the backend's own validation.
#include <doctest/doctest.h>

#include <functional>
#include <limits>

#include "checks.hpp"
#include "compare.hpp"
#include "report.hpp"
#include "suite.hpp"

namespace conformance {
namespace {

const char* kOp = "errors";

// A tiny op whose result is known: proof that a refused call left the context usable.
bool context_still_works() {
  if (!CAE_TABLE_HAS(&table(), relu_forward)) return true;  // nothing to run it with
  cae::Tensor x = upload_tensor({4}, {-1.0f, 2.0f, -3.0f, 4.0f});
  cae::Tensor y = poisoned_tensor({4});
  ctx().relu_forward(x, y);
  return download(y) == std::vector<float>{0.0f, 2.0f, 0.0f, 4.0f};
}

// `call` must fail with INVALID_ARGUMENT and a message, and the context must
// still compute correctly afterwards.
void expect_refused(const std::string& what, const std::function<cae_status()>& call) {
  guarded(kOp, what, [&] {
    const cae_status status = call();
    const char* message = table().last_error(ctx().handle());
    const std::string text = message ? message : "";
    const bool refused = status == CAE_STATUS_INVALID_ARGUMENT && !text.empty();
    const bool usable = context_still_works();
    record(refused && usable, kOp, what,
           status == CAE_STATUS_OK ? "accepted (OK)" : cae::status_name(status));
    if (refused) explain("message: " + text);
    if (status == CAE_STATUS_OK) explain("the call was accepted; it must be refused");
    if (status != CAE_STATUS_OK && text.empty()) explain("last_error(ctx) is empty");
    if (status != CAE_STATUS_OK && status != CAE_STATUS_INVALID_ARGUMENT) {
      explain("expected INVALID_ARGUMENT; message: " + text);
    }
    if (!usable) explain("afterwards relu_forward on the same context gave a wrong result");
  });
}

cae_context raw() { return ctx().handle(); }

}  // namespace

void check_errors() {
  const cae_backend_table& t = table();
  if (CAE_TABLE_HAS(&t, conv2d_forward)) {
    SUBCASE("conv2d_forward channel mismatch") {
      cae::Tensor x = ctx().alloc({2, 3, 5, 5}), w = ctx().alloc({4, 2, 3, 3});
      cae::Tensor b = ctx().alloc({4}), y = ctx().alloc({2, 4, 5, 5});
      expect_refused("conv2d_forward x[2,3,5,5] w[4,2,3,3]", [&] {
        return t.conv2d_forward(raw(), x.handle(), w.handle(), b.handle(), y.handle(), 0);
      });
    }
    SUBCASE("conv2d_forward output size") {
      cae::Tensor x = ctx().alloc({2, 3, 5, 5}), w = ctx().alloc({4, 3, 3, 3});
      cae::Tensor b = ctx().alloc({4}), y = ctx().alloc({2, 4, 4, 5});
      expect_refused("conv2d_forward y[2,4,4,5] for x[2,3,5,5]", [&] {
        return t.conv2d_forward(raw(), x.handle(), w.handle(), b.handle(), y.handle(), 0);
      });
    }
    SUBCASE("conv2d_forward fuse_relu") {
      cae::Tensor x = ctx().alloc({1, 1, 3, 3}), w = ctx().alloc({1, 1, 3, 3});
      cae::Tensor b = ctx().alloc({1}), y = ctx().alloc({1, 1, 3, 3});
      expect_refused("conv2d_forward fuse_relu = 2", [&] {
        return t.conv2d_forward(raw(), x.handle(), w.handle(), b.handle(), y.handle(), 2);
      });
    }
  }
  if (CAE_TABLE_HAS(&t, conv2d_backward)) {
    SUBCASE("conv2d_backward dw shape") {
      cae::Tensor x = ctx().alloc({2, 3, 5, 5}), w = ctx().alloc({4, 3, 3, 3});
      cae::Tensor dy = ctx().alloc({2, 4, 5, 5}), dw = ctx().alloc({4, 3, 1, 1});
      cae::Tensor db = ctx().alloc({4});
      expect_refused("conv2d_backward dw[4,3,1,1] for w[4,3,3,3]", [&] {
        return t.conv2d_backward(raw(), x.handle(), w.handle(), dy.handle(), nullptr, dw.handle(),
                                 db.handle());
      });
    }
  }
  if (CAE_TABLE_HAS(&t, relu_forward)) {
    SUBCASE("relu_forward count") {
      cae::Tensor x = ctx().alloc({6}), y = ctx().alloc({5});
      expect_refused("relu_forward x[6] y[5]",
                     [&] { return t.relu_forward(raw(), x.handle(), y.handle()); });
    }
    SUBCASE("NULL tensor") {
      cae::Tensor y = ctx().alloc({5});
      expect_refused("relu_forward x = NULL",
                     [&] { return t.relu_forward(raw(), nullptr, y.handle()); });
    }
  }
  if (CAE_TABLE_HAS(&t, relu_backward)) {
    SUBCASE("relu_backward count") {
      cae::Tensor y = ctx().alloc({6}), dy = ctx().alloc({6}), dx = ctx().alloc({7});
      expect_refused("relu_backward dx[7] for y[6]",
                     [&] { return t.relu_backward(raw(), y.handle(), dy.handle(), dx.handle()); });
    }
  }
  if (CAE_TABLE_HAS(&t, maxpool2x2_forward)) {
    SUBCASE("maxpool2x2_forward odd height") {
      cae::Tensor x = ctx().alloc({1, 1, 5, 4}), y = ctx().alloc({1, 1, 2, 2});
      expect_refused("maxpool2x2_forward x[1,1,5,4]",
                     [&] { return t.maxpool2x2_forward(raw(), x.handle(), y.handle()); });
    }
  }
  if (CAE_TABLE_HAS(&t, maxpool2x2_backward)) {
    SUBCASE("maxpool2x2_backward dy shape") {
      cae::Tensor x = ctx().alloc({1, 2, 4, 4}), dy = ctx().alloc({1, 2, 2, 3});
      cae::Tensor dx = ctx().alloc({1, 2, 4, 4});
      expect_refused("maxpool2x2_backward dy[1,2,2,3] for x[1,2,4,4]", [&] {
        return t.maxpool2x2_backward(raw(), x.handle(), dy.handle(), dx.handle());
      });
    }
  }
  if (CAE_TABLE_HAS(&t, upsample2x_forward)) {
    SUBCASE("upsample2x_forward output size") {
      cae::Tensor x = ctx().alloc({1, 2, 3, 3}), y = ctx().alloc({1, 2, 6, 5});
      expect_refused("upsample2x_forward y[1,2,6,5] for x[1,2,3,3]",
                     [&] { return t.upsample2x_forward(raw(), x.handle(), y.handle()); });
    }
  }
  if (CAE_TABLE_HAS(&t, upsample2x_backward)) {
    SUBCASE("upsample2x_backward channels") {
      cae::Tensor dy = ctx().alloc({1, 2, 6, 6}), dx = ctx().alloc({1, 3, 3, 3});
      expect_refused("upsample2x_backward dx[1,3,3,3] for dy[1,2,6,6]",
                     [&] { return t.upsample2x_backward(raw(), dy.handle(), dx.handle()); });
    }
  }
  if (CAE_TABLE_HAS(&t, mse_loss)) {
    SUBCASE("mse_loss loss size") {
      cae::Tensor p = ctx().alloc({8}), q = ctx().alloc({8}), loss = ctx().alloc({2});
      expect_refused("mse_loss loss[2]", [&] {
        return t.mse_loss(raw(), p.handle(), q.handle(), loss.handle(), nullptr);
      });
    }
    SUBCASE("mse_loss target count") {
      cae::Tensor p = ctx().alloc({8}), q = ctx().alloc({9}), loss = ctx().alloc({1});
      expect_refused("mse_loss pred[8] target[9]", [&] {
        return t.mse_loss(raw(), p.handle(), q.handle(), loss.handle(), nullptr);
      });
    }
  }
  if (CAE_TABLE_HAS(&t, sgd_step)) {
    SUBCASE("sgd_step velocity NULL") {
      cae::Tensor p = ctx().alloc({8}), g = ctx().alloc({8});
      expect_refused("sgd_step momentum 0.9 velocity = NULL", [&] {
        return t.sgd_step(raw(), p.handle(), g.handle(), nullptr, 0.1f, 0.9f, 0.0f);
      });
    }
    SUBCASE("sgd_step grad count") {
      cae::Tensor p = ctx().alloc({8}), g = ctx().alloc({4}), v = ctx().alloc({8});
      expect_refused("sgd_step param[8] grad[4]", [&] {
        return t.sgd_step(raw(), p.handle(), g.handle(), v.handle(), 0.1f, 0.9f, 0.0f);
      });
    }
  }
  if (CAE_TABLE_HAS(&t, adam_step)) {
    SUBCASE("adam_step step 0") {
      cae::Tensor p = ctx().alloc({8}), g = ctx().alloc({8}), m = ctx().alloc({8});
      cae::Tensor v = ctx().alloc({8});
      const cae_adam_params params{1e-3f, 0.9f, 0.999f, 1e-8f, 0.0f, 0};
      expect_refused("adam_step step = 0", [&] {
        return t.adam_step(raw(), p.handle(), g.handle(), m.handle(), v.handle(), &params);
      });
    }
    SUBCASE("adam_step params NULL") {
      cae::Tensor p = ctx().alloc({8}), g = ctx().alloc({8}), m = ctx().alloc({8});
      cae::Tensor v = ctx().alloc({8});
      expect_refused("adam_step params = NULL", [&] {
        return t.adam_step(raw(), p.handle(), g.handle(), m.handle(), v.handle(), nullptr);
      });
    }
  }
  if (CAE_TABLE_HAS(&t, kernel_matrix)) {
    SUBCASE("kernel_matrix feature size") {
      cae::Tensor x = ctx().alloc({4, 3}), y = ctx().alloc({5, 2}), k = ctx().alloc({4, 5});
      expect_refused("kernel_matrix x[4,3] y[5,2]", [&] {
        return t.kernel_matrix(raw(), x.handle(), y.handle(), k.handle(), CAE_KERNEL_LINEAR, 0.0f);
      });
    }
    SUBCASE("kernel_matrix gamma") {
      cae::Tensor x = ctx().alloc({4, 3}), k = ctx().alloc({4, 4});
      expect_refused("kernel_matrix rbf gamma = 0", [&] {
        return t.kernel_matrix(raw(), x.handle(), x.handle(), k.handle(), CAE_KERNEL_RBF, 0.0f);
      });
    }
    SUBCASE("kernel_matrix kind") {
      cae::Tensor x = ctx().alloc({4, 3}), k = ctx().alloc({4, 4});
      expect_refused("kernel_matrix kind = 7", [&] {
        return t.kernel_matrix(raw(), x.handle(), x.handle(), k.handle(), 7, 1.0f);
      });
    }
  }
  SUBCASE("tensor_upload count") {
    cae::Tensor x = ctx().alloc({2, 3});
    const std::vector<float> values(7, 1.0f);
    expect_refused("tensor_upload 5 floats into [2,3]",
                   [&] { return t.tensor_upload(raw(), x.handle(), values.data(), 5); });
    expect_refused("tensor_upload 7 floats into [2,3]",
                   [&] { return t.tensor_upload(raw(), x.handle(), values.data(), 7); });
  }
  SUBCASE("tensor_download count") {
    cae::Tensor x = upload_tensor({2, 3}, std::vector<float>(6, 1.0f));
    std::vector<float> values(7);
    expect_refused("tensor_download 7 floats from [2,3]",
                   [&] { return t.tensor_download(raw(), x.handle(), values.data(), 7); });
  }
  SUBCASE("tensor_alloc dims") {
    const int64_t good[5] = {2, 3, 4, 5, 6}, zero[2] = {3, 0}, negative[2] = {-1, 4};
    const struct {
      const char* what;
      int32_t ndim;
      const int64_t* dims;
    } bad[] = {{"tensor_alloc ndim = 0", 0, good},
               {"tensor_alloc ndim = 5", 5, good},
               {"tensor_alloc dims [3,0]", 2, zero},
               {"tensor_alloc dims [-1,4]", 2, negative},
               {"tensor_alloc dims = NULL", 2, nullptr}};
    for (const auto& b : bad) {
      cae_tensor out = nullptr;
      expect_refused(b.what, [&] { return t.tensor_alloc(raw(), b.ndim, b.dims, &out); });
      if (out) t.tensor_free(raw(), out);  // refused calls should not hand one out
    }
  }
}

}  // namespace conformance
