// Entry points of the layer ops: convolution, ReLU, max-pool, upsample.
#include "op_shapes.hpp"
#include "winograd_context.hpp"
#include "winograd_entry_points.hpp"
#include "winograd_ops.hpp"

namespace cae_winograd {
namespace entry {

using cae_plugin::guard;

cae_status conv2d_forward(cae_context ctx, cae_tensor x, cae_tensor w, cae_tensor b, cae_tensor y,
                          int32_t fuse_relu) {
  return guard(ctx, [&] {
    const char* op = "conv2d_forward";
    Context& c = context_arg(ctx, op);
    const cae_tensor_s& tx = tensor_arg(c, x, op, "x");
    const cae_tensor_s& tw = tensor_arg(c, w, op, "w");
    const cae_tensor_s& tb = tensor_arg(c, b, op, "b");
    cae_tensor_s& ty = tensor_arg(c, y, op, "y");
    const cae_plugin::ConvDims d =
        cae_plugin::check_conv2d_forward(tx.shape, tw.shape, tb.shape, ty.shape, fuse_relu);
    c.activate();
    mark_written(c, &ty);
    cae_winograd::conv2d_forward(c, d, tx.data, tw, tb.data, ty.data, fuse_relu == 1);
  });
}

cae_status conv2d_backward(cae_context ctx, cae_tensor x, cae_tensor w, cae_tensor dy,
                           cae_tensor dx, cae_tensor dw, cae_tensor db) {
  return guard(ctx, [&] {
    const char* op = "conv2d_backward";
    Context& c = context_arg(ctx, op);
    const cae_tensor_s& tx = tensor_arg(c, x, op, "x");
    const cae_tensor_s& tw = tensor_arg(c, w, op, "w");
    const cae_tensor_s& tdy = tensor_arg(c, dy, op, "dy");
    cae_tensor_s* tdx = optional_tensor_arg(c, dx, op, "dx");
    cae_tensor_s& tdw = tensor_arg(c, dw, op, "dw");
    cae_tensor_s& tdb = tensor_arg(c, db, op, "db");
    const cae_plugin::ConvDims d = cae_plugin::check_conv2d_backward(
        tx.shape, tw.shape, tdy.shape, tdx ? &tdx->shape : nullptr, tdw.shape, tdb.shape);
    c.activate();
    mark_written(c, tdx);
    mark_written(c, &tdw);
    mark_written(c, &tdb);
    cae_winograd::conv2d_backward(c, d, tx.data, tw, tdy.data, tdx ? tdx->data : nullptr, tdw.data,
                                  tdb.data);
  });
}

cae_status relu_forward(cae_context ctx, cae_tensor x, cae_tensor y) {
  return guard(ctx, [&] {
    const char* op = "relu_forward";
    Context& c = context_arg(ctx, op);
    const cae_tensor_s& tx = tensor_arg(c, x, op, "x");
    cae_tensor_s& ty = tensor_arg(c, y, op, "y");  // may be x: in place
    cae_plugin::check_same_shape(op, "y", ty.shape, "x", tx.shape);
    c.activate();
    mark_written(c, &ty);
    cae_winograd::relu_forward(c, tx.data, ty.data, tx.shape.count());
  });
}

cae_status relu_backward(cae_context ctx, cae_tensor y, cae_tensor dy, cae_tensor dx) {
  return guard(ctx, [&] {
    const char* op = "relu_backward";
    Context& c = context_arg(ctx, op);
    const cae_tensor_s& ty = tensor_arg(c, y, op, "y");
    const cae_tensor_s& tdy = tensor_arg(c, dy, op, "dy");
    cae_tensor_s& tdx = tensor_arg(c, dx, op, "dx");  // may be dy: in place
    cae_plugin::check_same_shape(op, "dy", tdy.shape, "y", ty.shape);
    cae_plugin::check_same_shape(op, "dx", tdx.shape, "y", ty.shape);
    c.activate();
    mark_written(c, &tdx);
    cae_winograd::relu_backward(c, ty.data, tdy.data, tdx.data, ty.shape.count());
  });
}

cae_status maxpool2x2_forward(cae_context ctx, cae_tensor x, cae_tensor y) {
  return guard(ctx, [&] {
    const char* op = "maxpool2x2_forward";
    Context& c = context_arg(ctx, op);
    const cae_tensor_s& tx = tensor_arg(c, x, op, "x");
    cae_tensor_s& ty = tensor_arg(c, y, op, "y");
    cae_plugin::check_pool2x2(op, tx.shape, ty.shape);
    c.activate();
    mark_written(c, &ty);
    cae_winograd::maxpool2x2_forward(c, tx.shape, tx.data, ty.data);
  });
}

cae_status maxpool2x2_backward(cae_context ctx, cae_tensor x, cae_tensor dy, cae_tensor dx) {
  return guard(ctx, [&] {
    const char* op = "maxpool2x2_backward";
    Context& c = context_arg(ctx, op);
    const cae_tensor_s& tx = tensor_arg(c, x, op, "x");
    const cae_tensor_s& tdy = tensor_arg(c, dy, op, "dy");
    cae_tensor_s& tdx = tensor_arg(c, dx, op, "dx");
    cae_plugin::check_pool2x2(op, tx.shape, tdy.shape);
    cae_plugin::check_same_shape(op, "dx", tdx.shape, "x", tx.shape);
    c.activate();
    mark_written(c, &tdx);
    cae_winograd::maxpool2x2_backward(c, tx.shape, tx.data, tdy.data, tdx.data);
  });
}

cae_status upsample2x_forward(cae_context ctx, cae_tensor x, cae_tensor y) {
  return guard(ctx, [&] {
    const char* op = "upsample2x_forward";
    Context& c = context_arg(ctx, op);
    const cae_tensor_s& tx = tensor_arg(c, x, op, "x");
    cae_tensor_s& ty = tensor_arg(c, y, op, "y");
    cae_plugin::check_upsample2x(op, tx.shape, ty.shape);
    c.activate();
    mark_written(c, &ty);
    cae_winograd::upsample2x_forward(c, tx.shape, tx.data, ty.data);
  });
}

cae_status upsample2x_backward(cae_context ctx, cae_tensor dy, cae_tensor dx) {
  return guard(ctx, [&] {
    const char* op = "upsample2x_backward";
    Context& c = context_arg(ctx, op);
    const cae_tensor_s& tdy = tensor_arg(c, dy, op, "dy");
    cae_tensor_s& tdx = tensor_arg(c, dx, op, "dx");
    cae_plugin::check_upsample2x(op, tdx.shape, tdy.shape);
    c.activate();
    mark_written(c, &tdx);
    cae_winograd::upsample2x_backward(c, tdx.shape, tdy.data, tdx.data);
  });
}

}  // namespace entry
}  // namespace cae_winograd
