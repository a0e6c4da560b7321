// Entry points of the layer ops: resolve handles, check shapes with the
// shared op_shapes rules (so every backend accepts the same inputs), run.
#include "naive_entry_points.hpp"
#include "naive_ops.hpp"

namespace naive {
namespace entry {

using cae_plugin::guard;

cae_status conv2d_forward(cae_context ctx, cae_tensor x, cae_tensor w, cae_tensor b, cae_tensor y,
                          int32_t fuse_relu) {
  return guard(ctx, [&] {
    const char* op = "conv2d_forward";
    cae_context_s& c = use_context(ctx, op);
    const cae_tensor_s& tx = c.tensor(x, op, "x");
    const cae_tensor_s& tw = c.tensor(w, op, "w");
    const cae_tensor_s& tb = c.tensor(b, op, "b");
    cae_tensor_s& ty = c.tensor(y, op, "y");
    const auto dims =
        cae_plugin::check_conv2d_forward(tx.shape, tw.shape, tb.shape, ty.shape, fuse_relu);
    naive::conv2d_forward(c, tx, tw, tb, ty, dims, fuse_relu == 1);
  });
}

cae_status conv2d_backward(cae_context ctx, cae_tensor x, cae_tensor w, cae_tensor dy,
                           cae_tensor dx, cae_tensor dw, cae_tensor db) {
  return guard(ctx, [&] {
    const char* op = "conv2d_backward";
    cae_context_s& c = use_context(ctx, op);
    const cae_tensor_s& tx = c.tensor(x, op, "x");
    const cae_tensor_s& tw = c.tensor(w, op, "w");
    const cae_tensor_s& tdy = c.tensor(dy, op, "dy");
    cae_tensor_s* tdx = c.optional_tensor(dx, op, "dx");
    cae_tensor_s& tdw = c.tensor(dw, op, "dw");
    cae_tensor_s& tdb = c.tensor(db, op, "db");
    const auto dims = cae_plugin::check_conv2d_backward(
        tx.shape, tw.shape, tdy.shape, tdx ? &tdx->shape : nullptr, tdw.shape, tdb.shape);
    naive::conv2d_backward(c, tx, tw, tdy, tdx, tdw, tdb, dims);
  });
}

cae_status relu_forward(cae_context ctx, cae_tensor x, cae_tensor y) {
  return guard(ctx, [&] {
    const char* op = "relu_forward";
    cae_context_s& c = use_context(ctx, op);
    const cae_tensor_s& tx = c.tensor(x, op, "x");
    cae_tensor_s& ty = c.tensor(y, op, "y");
    cae_plugin::check_same_count(op, "y", ty.shape, "x", tx.shape);
    naive::relu_forward(c, tx, ty);
  });
}

cae_status relu_backward(cae_context ctx, cae_tensor y, cae_tensor dy, cae_tensor dx) {
  return guard(ctx, [&] {
    const char* op = "relu_backward";
    cae_context_s& c = use_context(ctx, op);
    const cae_tensor_s& ty = c.tensor(y, op, "y");
    const cae_tensor_s& tdy = c.tensor(dy, op, "dy");
    cae_tensor_s& tdx = c.tensor(dx, op, "dx");
    cae_plugin::check_same_count(op, "dy", tdy.shape, "y", ty.shape);
    cae_plugin::check_same_count(op, "dx", tdx.shape, "y", ty.shape);
    naive::relu_backward(c, ty, tdy, tdx);
  });
}

cae_status maxpool2x2_forward(cae_context ctx, cae_tensor x, cae_tensor y) {
  return guard(ctx, [&] {
    const char* op = "maxpool2x2_forward";
    cae_context_s& c = use_context(ctx, op);
    const cae_tensor_s& tx = c.tensor(x, op, "x");
    cae_tensor_s& ty = c.tensor(y, op, "y");
    cae_plugin::check_pool2x2(op, tx.shape, ty.shape);
    naive::maxpool2x2_forward(c, tx, ty);
  });
}

cae_status maxpool2x2_backward(cae_context ctx, cae_tensor x, cae_tensor dy, cae_tensor dx) {
  return guard(ctx, [&] {
    const char* op = "maxpool2x2_backward";
    cae_context_s& c = use_context(ctx, op);
    const cae_tensor_s& tx = c.tensor(x, op, "x");
    const cae_tensor_s& tdy = c.tensor(dy, op, "dy");
    cae_tensor_s& tdx = c.tensor(dx, op, "dx");
    cae_plugin::check_pool2x2(op, tx.shape, tdy.shape);
    cae_plugin::check_same_shape(op, "dx", tdx.shape, "x", tx.shape);
    naive::maxpool2x2_backward(c, tx, tdy, tdx);
  });
}

cae_status upsample2x_forward(cae_context ctx, cae_tensor x, cae_tensor y) {
  return guard(ctx, [&] {
    const char* op = "upsample2x_forward";
    cae_context_s& c = use_context(ctx, op);
    const cae_tensor_s& tx = c.tensor(x, op, "x");
    cae_tensor_s& ty = c.tensor(y, op, "y");
    cae_plugin::check_upsample2x(op, tx.shape, ty.shape);
    naive::upsample2x_forward(c, tx, ty);
  });
}

cae_status upsample2x_backward(cae_context ctx, cae_tensor dy, cae_tensor dx) {
  return guard(ctx, [&] {
    const char* op = "upsample2x_backward";
    cae_context_s& c = use_context(ctx, op);
    const cae_tensor_s& tdy = c.tensor(dy, op, "dy");
    cae_tensor_s& tdx = c.tensor(dx, op, "dx");
    cae_plugin::check_upsample2x(op, tdx.shape, tdy.shape);
    naive::upsample2x_backward(c, tdy, tdx);
  });
}

cae_status mse_loss(cae_context ctx, cae_tensor pred, cae_tensor target, cae_tensor loss,
                    cae_tensor grad) {
  return guard(ctx, [&] {
    const char* op = "mse_loss";
    cae_context_s& c = use_context(ctx, op);
    const cae_tensor_s& tpred = c.tensor(pred, op, "pred");
    const cae_tensor_s& ttarget = c.tensor(target, op, "target");
    cae_tensor_s& tloss = c.tensor(loss, op, "loss");
    cae_tensor_s* tgrad = c.optional_tensor(grad, op, "grad");
    cae_plugin::check_mse(tpred.shape, ttarget.shape, tloss.shape, tgrad ? &tgrad->shape : nullptr);
    naive::mse_loss(c, tpred, ttarget, tloss, tgrad);
  });
}

cae_status sgd_step(cae_context ctx, cae_tensor param, cae_tensor grad, cae_tensor velocity,
                    float learning_rate, float momentum, float weight_decay) {
  return guard(ctx, [&] {
    const char* op = "sgd_step";
    cae_context_s& c = use_context(ctx, op);
    cae_tensor_s& tparam = c.tensor(param, op, "param");
    const cae_tensor_s& tgrad = c.tensor(grad, op, "grad");
    cae_tensor_s* tvelocity = c.optional_tensor(velocity, op, "velocity");
    cae_plugin::check_sgd(tparam.shape, tgrad.shape, tvelocity ? &tvelocity->shape : nullptr,
                          learning_rate, momentum, weight_decay);
    naive::sgd_step(c, tparam, tgrad, tvelocity, learning_rate, momentum, weight_decay);
  });
}

cae_status adam_step(cae_context ctx, cae_tensor param, cae_tensor grad, cae_tensor m, cae_tensor v,
                     const cae_adam_params* params) {
  return guard(ctx, [&] {
    const char* op = "adam_step";
    cae_context_s& c = use_context(ctx, op);
    cae_tensor_s& tparam = c.tensor(param, op, "param");
    const cae_tensor_s& tgrad = c.tensor(grad, op, "grad");
    cae_tensor_s& tm = c.tensor(m, op, "m");
    cae_tensor_s& tv = c.tensor(v, op, "v");
    cae_plugin::check_adam(tparam.shape, tgrad.shape, tm.shape, tv.shape, params);
    naive::adam_step(c, tparam, tgrad, tm, tv, *params);
  });
}

cae_status kernel_matrix(cae_context ctx, cae_tensor x, cae_tensor y, cae_tensor k, int32_t kind,
                         float gamma) {
  return guard(ctx, [&] {
    const char* op = "kernel_matrix";
    cae_context_s& c = use_context(ctx, op);
    const cae_tensor_s& tx = c.tensor(x, op, "x");
    const cae_tensor_s& ty = c.tensor(y, op, "y");
    cae_tensor_s& tk = c.tensor(k, op, "k");
    const auto dims = cae_plugin::check_kernel_matrix(tx.shape, ty.shape, tk.shape, kind, gamma);
    naive::kernel_matrix(c, tx, ty, tk, dims, static_cast<cae_kernel_kind>(kind), gamma);
  });
}

}  // namespace entry
}  // namespace naive
