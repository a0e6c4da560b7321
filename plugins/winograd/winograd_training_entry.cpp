// Entry points of the loss, the optimizers and the SVM kernel matrix. The
// optimizer steps rewrite their parameters: new versions, so a convolution
// weight's cached filter transform is redone before its next use.
#include "op_shapes.hpp"
#include "winograd_context.hpp"
#include "winograd_entry_points.hpp"
#include "winograd_ops.hpp"

namespace cae_winograd {
namespace entry {

using cae_plugin::guard;

cae_status mse_loss(cae_context ctx, cae_tensor pred, cae_tensor target, cae_tensor loss,
                    cae_tensor grad) {
  return guard(ctx, [&] {
    const char* op = "mse_loss";
    Context& c = context_arg(ctx, op);
    const cae_tensor_s& tpred = tensor_arg(c, pred, op, "pred");
    const cae_tensor_s& ttarget = tensor_arg(c, target, op, "target");
    cae_tensor_s& tloss = tensor_arg(c, loss, op, "loss");
    cae_tensor_s* tgrad = optional_tensor_arg(c, grad, op, "grad");
    cae_plugin::check_mse(tpred.shape, ttarget.shape, tloss.shape, tgrad ? &tgrad->shape : nullptr);
    c.activate();
    mark_written(c, &tloss);
    mark_written(c, tgrad);
    cae_winograd::mse_loss(c, tpred.data, ttarget.data, tpred.shape.count(), tloss.data,
                           tgrad ? tgrad->data : nullptr);
  });
}

cae_status sgd_step(cae_context ctx, cae_tensor param, cae_tensor grad, cae_tensor velocity,
                    float learning_rate, float momentum, float weight_decay) {
  return guard(ctx, [&] {
    const char* op = "sgd_step";
    Context& c = context_arg(ctx, op);
    cae_tensor_s& tparam = tensor_arg(c, param, op, "param");
    const cae_tensor_s& tgrad = tensor_arg(c, grad, op, "grad");
    cae_tensor_s* tvelocity = optional_tensor_arg(c, velocity, op, "velocity");
    cae_plugin::check_sgd(tparam.shape, tgrad.shape, tvelocity ? &tvelocity->shape : nullptr,
                          learning_rate, momentum, weight_decay);
    c.activate();
    mark_written(c, &tparam);
    mark_written(c, tvelocity);
    cae_winograd::sgd_step(c, tparam.data, tgrad.data, tvelocity ? tvelocity->data : nullptr,
                           tparam.shape.count(), learning_rate, momentum, weight_decay);
  });
}

cae_status adam_step(cae_context ctx, cae_tensor param, cae_tensor grad, cae_tensor m, cae_tensor v,
                     const cae_adam_params* params) {
  return guard(ctx, [&] {
    const char* op = "adam_step";
    Context& c = context_arg(ctx, op);
    cae_tensor_s& tparam = tensor_arg(c, param, op, "param");
    const cae_tensor_s& tgrad = tensor_arg(c, grad, op, "grad");
    cae_tensor_s& tm = tensor_arg(c, m, op, "m");
    cae_tensor_s& tv = tensor_arg(c, v, op, "v");
    cae_plugin::check_adam(tparam.shape, tgrad.shape, tm.shape, tv.shape, params);
    c.activate();
    mark_written(c, &tparam);
    mark_written(c, &tm);
    mark_written(c, &tv);
    cae_winograd::adam_step(c, tparam.data, tgrad.data, tm.data, tv.data, tparam.shape.count(),
                            *params);
  });
}

cae_status kernel_matrix(cae_context ctx, cae_tensor x, cae_tensor y, cae_tensor k, int32_t kind,
                         float gamma) {
  return guard(ctx, [&] {
    const char* op = "kernel_matrix";
    Context& c = context_arg(ctx, op);
    const cae_tensor_s& tx = tensor_arg(c, x, op, "x");
    const cae_tensor_s& ty = tensor_arg(c, y, op, "y");  // may be x
    cae_tensor_s& tk = tensor_arg(c, k, op, "k");
    const cae_plugin::KernelDims dims =
        cae_plugin::check_kernel_matrix(tx.shape, ty.shape, tk.shape, kind, gamma);
    c.activate();
    mark_written(c, &tk);
    cae_winograd::kernel_matrix(c, tx.data, ty.data, tk.data, dims, kind, gamma);
  });
}

}  // namespace entry
}  // namespace cae_winograd
