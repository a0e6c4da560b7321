// Entry points of the loss, the optimizers and the SVM kernel matrix.
#include "op_shapes.hpp"
#include "v2_common_order.hpp"
#include "v2_context.hpp"
#include "v2_entry_points.hpp"
#include "v2_ops.hpp"

namespace cae_v2 {
namespace entry {

using cae_plugin::guard;

cae_status mse_loss(cae_context ctx, cae_tensor pred, cae_tensor target, cae_tensor loss,
                    cae_tensor grad) {
  return guard(ctx, [&] {
    const char* op = "mse_loss";
    Context& c = context_arg(ctx, op);
    cae_tensor_s& tpred = tensor_arg(c, pred, op, "pred");
    cae_tensor_s& ttarget = tensor_arg(c, target, op, "target");
    cae_tensor_s& tloss = tensor_arg(c, loss, op, "loss");
    cae_tensor_s* tgrad = optional_tensor_arg(c, grad, op, "grad");
    cae_plugin::check_mse(tpred.shape, ttarget.shape, tloss.shape, tgrad ? &tgrad->shape : nullptr);
    c.activate();
    CommonOrder order(c,
                      {{{&tpred, Access::read},
                        {&ttarget, Access::read},
                        {tgrad, Access::write},
                        {nullptr, Access::read}}},
                      3);
    cae_v2::mse_loss(c, order.data(0), order.data(1), tpred.shape.count(), tloss.data,
                     order.data(2));
    order.write_back();
  });
}

cae_status sgd_step(cae_context ctx, cae_tensor param, cae_tensor grad, cae_tensor velocity,
                    float learning_rate, float momentum, float weight_decay) {
  return guard(ctx, [&] {
    const char* op = "sgd_step";
    Context& c = context_arg(ctx, op);
    cae_tensor_s& tparam = tensor_arg(c, param, op, "param");
    cae_tensor_s& tgrad = tensor_arg(c, grad, op, "grad");
    cae_tensor_s* tvelocity = optional_tensor_arg(c, velocity, op, "velocity");
    cae_plugin::check_sgd(tparam.shape, tgrad.shape, tvelocity ? &tvelocity->shape : nullptr,
                          learning_rate, momentum, weight_decay);
    c.activate();
    CommonOrder order(c,
                      {{{&tparam, Access::read_write},
                        {&tgrad, Access::read},
                        {tvelocity, Access::read_write},
                        {nullptr, Access::read}}},
                      3);
    cae_v2::sgd_step(c, order.data(0), order.data(1), order.data(2), tparam.shape.count(),
                     learning_rate, momentum, weight_decay);
    order.write_back();
  });
}

cae_status adam_step(cae_context ctx, cae_tensor param, cae_tensor grad, cae_tensor m, cae_tensor v,
                     const cae_adam_params* params) {
  return guard(ctx, [&] {
    const char* op = "adam_step";
    Context& c = context_arg(ctx, op);
    cae_tensor_s& tparam = tensor_arg(c, param, op, "param");
    cae_tensor_s& tgrad = tensor_arg(c, grad, op, "grad");
    cae_tensor_s& tm = tensor_arg(c, m, op, "m");
    cae_tensor_s& tv = tensor_arg(c, v, op, "v");
    cae_plugin::check_adam(tparam.shape, tgrad.shape, tm.shape, tv.shape, params);
    c.activate();
    CommonOrder order(c,
                      {{{&tparam, Access::read_write},
                        {&tgrad, Access::read},
                        {&tm, Access::read_write},
                        {&tv, Access::read_write}}},
                      4);
    cae_v2::adam_step(c, order.data(0), order.data(1), order.data(2), order.data(3),
                      tparam.shape.count(), *params);
    order.write_back();
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
    cae_v2::kernel_matrix(c, tx.data, ty.data, tk.data, dims, kind, gamma);
  });
}

}  // namespace entry
}  // namespace cae_v2
