// Entry points of the layer ops: convolution, ReLU, max-pool, upsample.
// maxpool2x2_backward and upsample2x_backward are deferred (when fusion is
// on) so that an in-place relu_backward right after them merges into them.
#include "op_shapes.hpp"
#include "runtime_entry.hpp"
#include "runtime_ops.hpp"

namespace cae_cuda {
namespace entry {

using cae_plugin::guard;
using Kind = PendingResampleBackward::Kind;

cae_status conv2d_forward(cae_context ctx, cae_tensor x, cae_tensor w, cae_tensor b, cae_tensor y,
                          int32_t fuse_relu) {
  return guard(ctx, [&] {
    const char* op = "conv2d_forward";
    Context& c = enter(ctx, op);
    const cae_tensor_s& tx = tensor_arg(c, x, op, "x");
    cae_tensor_s& tw = tensor_arg(c, w, op, "w");
    const cae_tensor_s& tb = tensor_arg(c, b, op, "b");
    cae_tensor_s& ty = tensor_arg(c, y, op, "y");
    const cae_plugin::ConvDims d =
        cae_plugin::check_conv2d_forward(tx.shape, tw.shape, tb.shape, ty.shape, fuse_relu);
    cae_cuda::conv2d_forward(c, d, tx, tw, tb.data, ty.data, fuse_relu == 1);
    c.wrote(ty);
  });
}

cae_status conv2d_backward(cae_context ctx, cae_tensor x, cae_tensor w, cae_tensor dy,
                           cae_tensor dx, cae_tensor dw, cae_tensor db) {
  return guard(ctx, [&] {
    const char* op = "conv2d_backward";
    Context& c = enter(ctx, op);
    const cae_tensor_s& tx = tensor_arg(c, x, op, "x");
    cae_tensor_s& tw = tensor_arg(c, w, op, "w");
    const cae_tensor_s& tdy = tensor_arg(c, dy, op, "dy");
    cae_tensor_s* tdx = optional_tensor_arg(c, dx, op, "dx");
    cae_tensor_s& tdw = tensor_arg(c, dw, op, "dw");
    cae_tensor_s& tdb = tensor_arg(c, db, op, "db");
    const cae_plugin::ConvDims d = cae_plugin::check_conv2d_backward(
        tx.shape, tw.shape, tdy.shape, tdx ? &tdx->shape : nullptr, tdw.shape, tdb.shape);
    cae_cuda::conv2d_backward(c, d, tx, tw, tdy, tdx ? tdx->data : nullptr, tdw.data, tdb.data);
    c.wrote(tdx);
    c.wrote(tdw);
    c.wrote(tdb);
  });
}

cae_status relu_forward(cae_context ctx, cae_tensor x, cae_tensor y) {
  return guard(ctx, [&] {
    const char* op = "relu_forward";
    Context& c = enter(ctx, op);
    const cae_tensor_s& tx = tensor_arg(c, x, op, "x");
    cae_tensor_s& ty = tensor_arg(c, y, op, "y");  // may be x: in place
    cae_plugin::check_same_shape(op, "y", ty.shape, "x", tx.shape);
    cae_cuda::relu_forward(c, tx.data, ty.data, tx.shape.count());
    c.wrote(ty);
  });
}

cae_status relu_backward(cae_context ctx, cae_tensor y, cae_tensor dy, cae_tensor dx) {
  return guard(ctx, [&] {
    const char* op = "relu_backward";
    Context& c = enter_keeping_deferred(ctx, op);
    cae_tensor_s& ty = tensor_arg(c, y, op, "y");
    cae_tensor_s& tdy = tensor_arg(c, dy, op, "dy");
    cae_tensor_s& tdx = tensor_arg(c, dx, op, "dx");  // may be dy: in place
    cae_plugin::check_same_shape(op, "dy", tdy.shape, "y", ty.shape);
    cae_plugin::check_same_shape(op, "dx", tdx.shape, "y", ty.shape);
    // In place on the gradient a deferred max-pool / upsample backward is
    // about to write: write the masked gradient in that one pass instead.
    const PendingResampleBackward pending = c.deferred.resample;
    const bool onto_pending = pending.kind != Kind::none && &tdy == pending.dx && &tdx == &tdy &&
                              &ty != pending.dx && &ty != pending.dy;
    if (onto_pending && pending.kind == Kind::maxpool && &ty == pending.x) {
      // y is the pool's input: at the chosen element, y > 0 means "the max is > 0".
      c.deferred.resample = PendingResampleBackward{};
      flush_deferred(c);  // Adam steps, if any were queued behind it (none in practice)
      cae_cuda::maxpool2x2_backward_recorded(c, *pending.x, pending.dy->data, tdx.data, true);
    } else if (onto_pending && pending.kind == Kind::upsample) {
      c.deferred.resample = PendingResampleBackward{};
      flush_deferred(c);
      cae_cuda::upsample2x_backward(c, pending.dy->shape, pending.dy->data, tdx.data, ty.data);
    } else {
      flush_deferred(c);
      cae_cuda::relu_backward(c, ty.data, tdy.data, tdx.data, ty.shape.count());
    }
    c.wrote(tdx);
  });
}

cae_status maxpool2x2_forward(cae_context ctx, cae_tensor x, cae_tensor y) {
  return guard(ctx, [&] {
    const char* op = "maxpool2x2_forward";
    Context& c = enter(ctx, op);
    cae_tensor_s& tx = tensor_arg(c, x, op, "x");
    cae_tensor_s& ty = tensor_arg(c, y, op, "y");
    cae_plugin::check_pool2x2(op, tx.shape, ty.shape);
    cae_cuda::maxpool2x2_forward_recording(c, tx, ty.data);
    c.wrote(ty);
  });
}

cae_status maxpool2x2_backward(cae_context ctx, cae_tensor x, cae_tensor dy, cae_tensor dx) {
  return guard(ctx, [&] {
    const char* op = "maxpool2x2_backward";
    Context& c = enter(ctx, op);
    cae_tensor_s& tx = tensor_arg(c, x, op, "x");
    cae_tensor_s& tdy = tensor_arg(c, dy, op, "dy");
    cae_tensor_s& tdx = tensor_arg(c, dx, op, "dx");
    cae_plugin::check_pool2x2(op, tx.shape, tdy.shape);
    cae_plugin::check_same_shape(op, "dx", tdx.shape, "x", tx.shape);
    c.deferred.resample = PendingResampleBackward{Kind::maxpool, &tx, &tdy, &tdx};
    c.wrote(tdx);
  });
}

cae_status upsample2x_forward(cae_context ctx, cae_tensor x, cae_tensor y) {
  return guard(ctx, [&] {
    const char* op = "upsample2x_forward";
    Context& c = enter(ctx, op);
    const cae_tensor_s& tx = tensor_arg(c, x, op, "x");
    cae_tensor_s& ty = tensor_arg(c, y, op, "y");
    cae_plugin::check_upsample2x(op, tx.shape, ty.shape);
    cae_cuda::upsample2x_forward(c, ty.shape, tx.data, ty.data);
    c.wrote(ty);
  });
}

cae_status upsample2x_backward(cae_context ctx, cae_tensor dy, cae_tensor dx) {
  return guard(ctx, [&] {
    const char* op = "upsample2x_backward";
    Context& c = enter(ctx, op);
    cae_tensor_s& tdy = tensor_arg(c, dy, op, "dy");
    cae_tensor_s& tdx = tensor_arg(c, dx, op, "dx");
    cae_plugin::check_upsample2x(op, tdx.shape, tdy.shape);
    c.deferred.resample = PendingResampleBackward{Kind::upsample, nullptr, &tdy, &tdx};
    c.wrote(tdx);
  });
}

}  // namespace entry
}  // namespace cae_cuda
