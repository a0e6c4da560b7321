// Layer-op members of the table: resolve handles, validate shapes with the
// shared op_shapes checks (so every backend accepts the same inputs with the
// same messages), then hand device pointers to the launchers in v1_ops.hpp.
#include "op_shapes.hpp"
#include "v1_entries.hpp"
#include "v1_ops.hpp"

namespace v1 {
namespace entry {

using cae_plugin::guard;
using cae_plugin::require;

cae_status conv2d_forward(cae_context ctx, cae_tensor x, cae_tensor w, cae_tensor b, cae_tensor y,
                          int32_t fuse_relu) {
  return guard(ctx, [&] {
    const char* op = "conv2d_forward";
    cae_context_s& c = context_of(ctx, op);
    cae_tensor_s& tx = c.tensor(x, op, "x");
    cae_tensor_s& tw = c.tensor(w, op, "w");
    cae_tensor_s& tb = c.tensor(b, op, "b");
    cae_tensor_s& ty = c.tensor(y, op, "y");
    cae_plugin::ConvDims d =
        cae_plugin::check_conv2d_forward(tx.shape, tw.shape, tb.shape, ty.shape, fuse_relu);
    v1::require_supported_conv(op, d);
    c.activate();
    v1::conv2d_forward(c, d, tx.data, tw.data, tb.data, ty.data, fuse_relu == 1);
  });
}

cae_status conv2d_backward(cae_context ctx, cae_tensor x, cae_tensor w, cae_tensor dy,
                           cae_tensor dx, cae_tensor dw, cae_tensor db) {
  return guard(ctx, [&] {
    const char* op = "conv2d_backward";
    cae_context_s& c = context_of(ctx, op);
    cae_tensor_s& tx = c.tensor(x, op, "x");
    cae_tensor_s& tw = c.tensor(w, op, "w");
    cae_tensor_s& tdy = c.tensor(dy, op, "dy");
    cae_tensor_s* tdx = dx ? &c.tensor(dx, op, "dx") : nullptr;
    cae_tensor_s& tdw = c.tensor(dw, op, "dw");
    cae_tensor_s& tdb = c.tensor(db, op, "db");
    cae_plugin::ConvDims d = cae_plugin::check_conv2d_backward(
        tx.shape, tw.shape, tdy.shape, tdx ? &tdx->shape : nullptr, tdw.shape, tdb.shape);
    v1::require_supported_conv(op, d);
    c.activate();
    v1::conv2d_backward(c, d, tx.data, tw.data, tdy.data, tdx ? tdx->data : nullptr, tdw.data,
                        tdb.data);
  });
}

cae_status relu_forward(cae_context ctx, cae_tensor x, cae_tensor y) {
  return guard(ctx, [&] {
    const char* op = "relu_forward";
    cae_context_s& c = context_of(ctx, op);
    cae_tensor_s& tx = c.tensor(x, op, "x");
    cae_tensor_s& ty = c.tensor(y, op, "y");
    cae_plugin::check_same_shape(op, "y", ty.shape, "x", tx.shape);
    c.activate();
    v1::relu_forward(c, tx.data, ty.data, tx.shape.count());
  });
}

cae_status relu_backward(cae_context ctx, cae_tensor y, cae_tensor dy, cae_tensor dx) {
  return guard(ctx, [&] {
    const char* op = "relu_backward";
    cae_context_s& c = context_of(ctx, op);
    cae_tensor_s& ty = c.tensor(y, op, "y");
    cae_tensor_s& tdy = c.tensor(dy, op, "dy");
    cae_tensor_s& tdx = c.tensor(dx, op, "dx");
    cae_plugin::check_same_shape(op, "dy", tdy.shape, "y", ty.shape);
    cae_plugin::check_same_shape(op, "dx", tdx.shape, "y", ty.shape);
    c.activate();
    v1::relu_backward(c, ty.data, tdy.data, tdx.data, ty.shape.count());
  });
}

cae_status maxpool2x2_forward(cae_context ctx, cae_tensor x, cae_tensor y) {
  return guard(ctx, [&] {
    const char* op = "maxpool2x2_forward";
    cae_context_s& c = context_of(ctx, op);
    cae_tensor_s& tx = c.tensor(x, op, "x");
    cae_tensor_s& ty = c.tensor(y, op, "y");
    cae_plugin::check_pool2x2(op, tx.shape, ty.shape);
    c.activate();
    v1::maxpool2x2_forward(c, tx.shape, tx.data, ty.data);
  });
}

cae_status maxpool2x2_backward(cae_context ctx, cae_tensor x, cae_tensor dy, cae_tensor dx) {
  return guard(ctx, [&] {
    const char* op = "maxpool2x2_backward";
    cae_context_s& c = context_of(ctx, op);
    cae_tensor_s& tx = c.tensor(x, op, "x");
    cae_tensor_s& tdy = c.tensor(dy, op, "dy");
    cae_tensor_s& tdx = c.tensor(dx, op, "dx");
    cae_plugin::check_pool2x2(op, tx.shape, tdy.shape);
    cae_plugin::check_same_shape(op, "dx", tdx.shape, "x", tx.shape);
    c.activate();
    v1::maxpool2x2_backward(c, tx.shape, tx.data, tdy.data, tdx.data);
  });
}

cae_status upsample2x_forward(cae_context ctx, cae_tensor x, cae_tensor y) {
  return guard(ctx, [&] {
    const char* op = "upsample2x_forward";
    cae_context_s& c = context_of(ctx, op);
    cae_tensor_s& tx = c.tensor(x, op, "x");
    cae_tensor_s& ty = c.tensor(y, op, "y");
    cae_plugin::check_upsample2x(op, tx.shape, ty.shape);
    c.activate();
    v1::upsample2x_forward(c, tx.shape, tx.data, ty.data);
  });
}

cae_status upsample2x_backward(cae_context ctx, cae_tensor dy, cae_tensor dx) {
  return guard(ctx, [&] {
    const char* op = "upsample2x_backward";
    cae_context_s& c = context_of(ctx, op);
    cae_tensor_s& tdy = c.tensor(dy, op, "dy");
    cae_tensor_s& tdx = c.tensor(dx, op, "dx");
    cae_plugin::check_upsample2x(op, tdx.shape, tdy.shape);
    c.activate();
    v1::upsample2x_backward(c, tdx.shape, tdy.data, tdx.data);
  });
}

cae_status mse_loss(cae_context ctx, cae_tensor pred, cae_tensor target, cae_tensor loss,
                    cae_tensor grad) {
  return guard(ctx, [&] {
    const char* op = "mse_loss";
    cae_context_s& c = context_of(ctx, op);
    cae_tensor_s& tp = c.tensor(pred, op, "pred");
    cae_tensor_s& tt = c.tensor(target, op, "target");
    cae_tensor_s& tl = c.tensor(loss, op, "loss");
    cae_tensor_s* tg = grad ? &c.tensor(grad, op, "grad") : nullptr;
    cae_plugin::check_mse(tp.shape, tt.shape, tl.shape, tg ? &tg->shape : nullptr);
    c.activate();
    v1::mse_loss(c, tp.data, tt.data, tl.data, tg ? tg->data : nullptr, tp.shape.count());
  });
}

cae_status sgd_step(cae_context ctx, cae_tensor param, cae_tensor grad, cae_tensor velocity,
                    float learning_rate, float momentum, float weight_decay) {
  return guard(ctx, [&] {
    const char* op = "sgd_step";
    cae_context_s& c = context_of(ctx, op);
    cae_tensor_s& tp = c.tensor(param, op, "param");
    cae_tensor_s& tg = c.tensor(grad, op, "grad");
    cae_tensor_s* tv = velocity ? &c.tensor(velocity, op, "velocity") : nullptr;
    cae_plugin::check_sgd(tp.shape, tg.shape, tv ? &tv->shape : nullptr, learning_rate, momentum,
                          weight_decay);
    c.activate();
    v1::sgd_step(c, tp.data, tg.data, tv ? tv->data : nullptr, tp.shape.count(), learning_rate,
                 momentum, weight_decay);
  });
}

cae_status adam_step(cae_context ctx, cae_tensor param, cae_tensor grad, cae_tensor m, cae_tensor v,
                     const cae_adam_params* params) {
  return guard(ctx, [&] {
    const char* op = "adam_step";
    cae_context_s& c = context_of(ctx, op);
    cae_tensor_s& tp = c.tensor(param, op, "param");
    cae_tensor_s& tg = c.tensor(grad, op, "grad");
    cae_tensor_s& tm = c.tensor(m, op, "m");
    cae_tensor_s& tv = c.tensor(v, op, "v");
    cae_plugin::check_adam(tp.shape, tg.shape, tm.shape, tv.shape, params);
    c.activate();
    v1::adam_step(c, tp.data, tg.data, tm.data, tv.data, tp.shape.count(), *params);
  });
}

cae_status kernel_matrix(cae_context ctx, cae_tensor x, cae_tensor y, cae_tensor k, int32_t kind,
                         float gamma) {
  return guard(ctx, [&] {
    const char* op = "kernel_matrix";
    cae_context_s& c = context_of(ctx, op);
    cae_tensor_s& tx = c.tensor(x, op, "x");
    cae_tensor_s& ty = c.tensor(y, op, "y");
    cae_tensor_s& tk = c.tensor(k, op, "k");
    cae_plugin::KernelDims d =
        cae_plugin::check_kernel_matrix(tx.shape, ty.shape, tk.shape, kind, gamma);
    c.activate();
    v1::kernel_matrix(c, d, tx.data, ty.data, tk.data, kind, gamma);
  });
}

}  // namespace entry
}  // namespace v1
