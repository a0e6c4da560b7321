// Entry points of the loss, the optimizers and the SVM kernel matrix.
#include "common_order.hpp"
#include "op_shapes.hpp"
#include "runtime_entry.hpp"
#include "runtime_ops.hpp"

namespace cae_cuda {
namespace entry {

using cae_plugin::guard;

namespace {

bool shares_a_tensor(const AdamTensor& a, const AdamTensor& b) {
  const void* ours[4] = {a.param, a.grad, a.m, a.v};
  const void* theirs[4] = {b.param, b.grad, b.m, b.v};
  for (const void* p : ours) {
    for (const void* q : theirs) {
      if (p == q) return true;
    }
  }
  return false;
}

}  // namespace

cae_status mse_loss(cae_context ctx, cae_tensor pred, cae_tensor target, cae_tensor loss,
                    cae_tensor grad) {
  return guard(ctx, [&] {
    const char* op = "mse_loss";
    Context& c = enter(ctx, op);
    cae_tensor_s& tpred = tensor_arg(c, pred, op, "pred");
    cae_tensor_s& ttarget = tensor_arg(c, target, op, "target");
    cae_tensor_s& tloss = tensor_arg(c, loss, op, "loss");
    cae_tensor_s* tgrad = optional_tensor_arg(c, grad, op, "grad");
    cae_plugin::check_mse(tpred.shape, ttarget.shape, tloss.shape, tgrad ? &tgrad->shape : nullptr);
    CommonOrder order(c, {{{&tpred, false}, {&ttarget, false}, {tgrad, true}, {nullptr, false}}});
    cae_cuda::mse_loss(c, order.data(0), order.data(1), tpred.shape.count(), tloss.data,
                       order.data(2));
    order.write_back();
    c.wrote(tloss);
    c.wrote(tgrad);
  });
}

cae_status sgd_step(cae_context ctx, cae_tensor param, cae_tensor grad, cae_tensor velocity,
                    float learning_rate, float momentum, float weight_decay) {
  return guard(ctx, [&] {
    const char* op = "sgd_step";
    Context& c = enter(ctx, op);
    cae_tensor_s& tparam = tensor_arg(c, param, op, "param");
    cae_tensor_s& tgrad = tensor_arg(c, grad, op, "grad");
    cae_tensor_s* tvelocity = optional_tensor_arg(c, velocity, op, "velocity");
    cae_plugin::check_sgd(tparam.shape, tgrad.shape, tvelocity ? &tvelocity->shape : nullptr,
                          learning_rate, momentum, weight_decay);
    CommonOrder order(c, {{{&tparam, true}, {&tgrad, false}, {tvelocity, true}, {nullptr, false}}});
    cae_cuda::sgd_step(c, order.data(0), order.data(1), order.data(2), tparam.shape.count(),
                       learning_rate, c.run_scalars, momentum, weight_decay);
    order.write_back();
    c.wrote(tparam);
    c.wrote(tvelocity);
  });
}

cae_status adam_step(cae_context ctx, cae_tensor param, cae_tensor grad, cae_tensor m, cae_tensor v,
                     const cae_adam_params* params) {
  return guard(ctx, [&] {
    const char* op = "adam_step";
    Context& c = enter_keeping_deferred(ctx, op);
    cae_tensor_s& tparam = tensor_arg(c, param, op, "param");
    cae_tensor_s& tgrad = tensor_arg(c, grad, op, "grad");
    cae_tensor_s& tm = tensor_arg(c, m, op, "m");
    cae_tensor_s& tv = tensor_arg(c, v, op, "v");
    cae_plugin::check_adam(tparam.shape, tgrad.shape, tm.shape, tv.shape, params);
    // Only other Adam steps on tensors of the same storage order stay queued
    // in front of this one (the staging of a mixed-order step reads its
    // operands now, so everything before it must have been issued).
    const bool queue = same_element_order(tparam.shape, tgrad.shape) &&
                       same_element_order(tparam.shape, tm.shape) &&
                       same_element_order(tparam.shape, tv.shape);
    if (!queue || c.deferred.resample.kind != PendingResampleBackward::Kind::none) {
      flush_deferred(c);
    }
    CommonOrder order(c, {{{&tparam, true}, {&tgrad, false}, {&tm, true}, {&tv, true}}});
    AdamTensor t{};
    t.param = order.data(0);
    t.grad = order.data(1);
    t.m = order.data(2);
    t.v = order.data(3);
    t.count = tparam.shape.count();
    t.learning_rate = params->learning_rate;
    t.beta1 = params->beta1;
    t.beta2 = params->beta2;
    t.epsilon = params->epsilon;
    t.weight_decay = params->weight_decay;
    t.bias_correction1 = adam_bias_correction(params->beta1, params->step);
    t.bias_correction2 = adam_bias_correction(params->beta2, params->step);
    t.run_scalars = c.run_scalars;
    if (queue) {
      bool conflict = static_cast<int>(c.deferred.adam.size()) >= kMaxBatchedAdam;
      for (const AdamTensor& queued : c.deferred.adam) {
        conflict = conflict || shares_a_tensor(queued, t);
      }
      if (conflict) flush_deferred(c);
      c.deferred.adam.push_back(t);
    } else {
      adam_steps(c, &t, 1);
      order.write_back();
    }
    c.wrote(tparam);
    c.wrote(tm);
    c.wrote(tv);
  });
}

cae_status kernel_matrix(cae_context ctx, cae_tensor x, cae_tensor y, cae_tensor k, int32_t kind,
                         float gamma) {
  return guard(ctx, [&] {
    const char* op = "kernel_matrix";
    Context& c = enter(ctx, op);
    const cae_tensor_s& tx = tensor_arg(c, x, op, "x");
    const cae_tensor_s& ty = tensor_arg(c, y, op, "y");  // may be x
    cae_tensor_s& tk = tensor_arg(c, k, op, "k");
    const cae_plugin::KernelDims dims =
        cae_plugin::check_kernel_matrix(tx.shape, ty.shape, tk.shape, kind, gamma);
    cae_cuda::kernel_matrix(c, tx.data, ty.data, tk.data, dims, kind, gamma);
    c.wrote(tk);
  });
}

cae_status kernel_rbf_from_linear(cae_context ctx, cae_tensor x, cae_tensor y, cae_tensor linear,
                                  cae_tensor k, float gamma) {
  return guard(ctx, [&] {
    const char* op = "kernel_rbf_from_linear";
    Context& c = enter(ctx, op);
    const cae_tensor_s& tx = tensor_arg(c, x, op, "x");
    const cae_tensor_s& ty = tensor_arg(c, y, op, "y");  // may be x
    const cae_tensor_s& tl = tensor_arg(c, linear, op, "linear");
    cae_tensor_s& tk = tensor_arg(c, k, op, "k");  // may be linear
    const cae_plugin::KernelDims dims =
        cae_plugin::check_kernel_rbf_from_linear(tx.shape, ty.shape, tl.shape, tk.shape, gamma);
    cae_cuda::kernel_rbf_from_linear(c, tx.data, ty.data, tl.data, tk.data, dims, gamma);
    c.wrote(tk);
  });
}

cae_status linear_loss(cae_context ctx, cae_tensor scores, cae_tensor bias, cae_tensor targets,
                       int32_t kind, float scale, cae_tensor residuals, cae_tensor sums) {
  return guard(ctx, [&] {
    const char* op = "linear_loss";
    Context& c = enter(ctx, op);
    const cae_tensor_s& ts = tensor_arg(c, scores, op, "scores");
    const cae_tensor_s& tb = tensor_arg(c, bias, op, "bias");
    const cae_tensor_s& tt = tensor_arg(c, targets, op, "targets");
    cae_tensor_s& tr = tensor_arg(c, residuals, op, "residuals");
    cae_tensor_s& tu = tensor_arg(c, sums, op, "sums");
    const bool aliased =
        cae_plugin::linear_loss_outputs_alias(scores, bias, targets, residuals, sums);
    const cae_plugin::LinearLossDims dims = cae_plugin::check_linear_loss(
        ts.shape, tb.shape, tt.shape, kind, scale, tr.shape, tu.shape, aliased);
    if (!cae_cuda::linear_loss(c, ts.data, tb.data, tt.data, kind, scale, tr.data, tu.data, dims)) {
      cae_plugin::fail(CAE_STATUS_UNSUPPORTED,
                       "linear_loss: off (the backend option linear-loss=off): the host computes "
                       "the linear classifier's loss");
    }
    c.wrote(tr);
    c.wrote(tu);
  });
}

}  // namespace entry
}  // namespace cae_cuda
