// The op members of the cae_backend_table that v2 and winograd share: each
// resolves its handles (tensor_arguments.hpp), checks the shapes with the
// shared rules (op_shapes.hpp), makes the device current, tells the backend
// which tensors it is about to write, and runs the backend's device side
// (cuda_device_ops.hpp). Every exception becomes a status through guard.
//
// Why: the two backends' entry layers were the same code but for their
// convolutions, their stored order and winograd's write versions; those are
// now the functions each backend defines (cuda_device_ops.hpp).
//
// Plugins only. In the backend's entry namespace,
// CAE_DEFINE_CUDA_OP_MEMBERS(Context) defines the members.
#pragma once

#include <cae/backend.h>

#include "cuda_device_ops.hpp"
#include "cuda_tensor_entries.hpp"
#include "op_shapes.hpp"
#include "tensor_arguments.hpp"

namespace cae_plugin {
namespace cuda {

// Tensor is named here, not written out, so that the bodies are checked only
// when instantiated, where the backend's types are complete.
template <typename Context, typename Tensor = cae_tensor_s>
struct OpEntries {
  static cae_status conv2d_forward(cae_context ctx, cae_tensor x, cae_tensor w, cae_tensor b,
                                   cae_tensor y, int32_t fuse_relu) {
    return guard(ctx, [&] {
      const char* op = "conv2d_forward";
      Context& c = context_argument(ctx, op);
      const Tensor& tx = *tensor_argument(c, x, op, "x");
      const Tensor& tw = *tensor_argument(c, w, op, "w");
      const Tensor& tb = *tensor_argument(c, b, op, "b");
      Tensor& ty = *tensor_argument(c, y, op, "y");
      const ConvDims d = check_conv2d_forward(tx.shape, tw.shape, tb.shape, ty.shape, fuse_relu);
      c.activate();
      device_ops::writing(c, &ty);
      device_ops::conv2d_forward(c, d, tx, tw, tb.data, ty.data, fuse_relu == 1);
    });
  }

  static cae_status conv2d_backward(cae_context ctx, cae_tensor x, cae_tensor w, cae_tensor dy,
                                    cae_tensor dx, cae_tensor dw, cae_tensor db) {
    return guard(ctx, [&] {
      const char* op = "conv2d_backward";
      Context& c = context_argument(ctx, op);
      const Tensor& tx = *tensor_argument(c, x, op, "x");
      const Tensor& tw = *tensor_argument(c, w, op, "w");
      const Tensor& tdy = *tensor_argument(c, dy, op, "dy");
      Tensor* tdx = optional_tensor_argument(c, dx, op, "dx");
      Tensor& tdw = *tensor_argument(c, dw, op, "dw");
      Tensor& tdb = *tensor_argument(c, db, op, "db");
      const ConvDims d = check_conv2d_backward(tx.shape, tw.shape, tdy.shape,
                                               tdx ? &tdx->shape : nullptr, tdw.shape, tdb.shape);
      c.activate();
      device_ops::writing(c, tdx);
      device_ops::writing(c, &tdw);
      device_ops::writing(c, &tdb);
      device_ops::conv2d_backward(c, d, tx, tw, tdy.data, tdx ? tdx->data : nullptr, tdw.data,
                                  tdb.data);
    });
  }

  static cae_status relu_forward(cae_context ctx, cae_tensor x, cae_tensor y) {
    return guard(ctx, [&] {
      const char* op = "relu_forward";
      Context& c = context_argument(ctx, op);
      const Tensor& tx = *tensor_argument(c, x, op, "x");
      Tensor& ty = *tensor_argument(c, y, op, "y");  // may be x: in place
      check_same_shape(op, "y", ty.shape, "x", tx.shape);
      c.activate();
      device_ops::writing(c, &ty);
      device_ops::relu_forward(c, tx.data, ty.data, tx.shape.count());
    });
  }

  static cae_status relu_backward(cae_context ctx, cae_tensor y, cae_tensor dy, cae_tensor dx) {
    return guard(ctx, [&] {
      const char* op = "relu_backward";
      Context& c = context_argument(ctx, op);
      const Tensor& ty = *tensor_argument(c, y, op, "y");
      const Tensor& tdy = *tensor_argument(c, dy, op, "dy");
      Tensor& tdx = *tensor_argument(c, dx, op, "dx");  // may be dy: in place
      check_same_shape(op, "dy", tdy.shape, "y", ty.shape);
      check_same_shape(op, "dx", tdx.shape, "y", ty.shape);
      c.activate();
      device_ops::writing(c, &tdx);
      device_ops::relu_backward(c, ty.data, tdy.data, tdx.data, ty.shape.count());
    });
  }

  static cae_status maxpool2x2_forward(cae_context ctx, cae_tensor x, cae_tensor y) {
    return guard(ctx, [&] {
      const char* op = "maxpool2x2_forward";
      Context& c = context_argument(ctx, op);
      const Tensor& tx = *tensor_argument(c, x, op, "x");
      Tensor& ty = *tensor_argument(c, y, op, "y");
      check_pool2x2(op, tx.shape, ty.shape);
      c.activate();
      device_ops::writing(c, &ty);
      device_ops::maxpool2x2_forward(c, tx.shape, tx.data, ty.data);
    });
  }

  static cae_status maxpool2x2_backward(cae_context ctx, cae_tensor x, cae_tensor dy,
                                        cae_tensor dx) {
    return guard(ctx, [&] {
      const char* op = "maxpool2x2_backward";
      Context& c = context_argument(ctx, op);
      const Tensor& tx = *tensor_argument(c, x, op, "x");
      const Tensor& tdy = *tensor_argument(c, dy, op, "dy");
      Tensor& tdx = *tensor_argument(c, dx, op, "dx");
      check_pool2x2(op, tx.shape, tdy.shape);
      check_same_shape(op, "dx", tdx.shape, "x", tx.shape);
      c.activate();
      device_ops::writing(c, &tdx);
      device_ops::maxpool2x2_backward(c, tx.shape, tx.data, tdy.data, tdx.data);
    });
  }

  static cae_status upsample2x_forward(cae_context ctx, cae_tensor x, cae_tensor y) {
    return guard(ctx, [&] {
      const char* op = "upsample2x_forward";
      Context& c = context_argument(ctx, op);
      const Tensor& tx = *tensor_argument(c, x, op, "x");
      Tensor& ty = *tensor_argument(c, y, op, "y");
      check_upsample2x(op, tx.shape, ty.shape);
      c.activate();
      device_ops::writing(c, &ty);
      device_ops::upsample2x_forward(c, tx.shape, tx.data, ty.data);
    });
  }

  static cae_status upsample2x_backward(cae_context ctx, cae_tensor dy, cae_tensor dx) {
    return guard(ctx, [&] {
      const char* op = "upsample2x_backward";
      Context& c = context_argument(ctx, op);
      const Tensor& tdy = *tensor_argument(c, dy, op, "dy");
      Tensor& tdx = *tensor_argument(c, dx, op, "dx");
      check_upsample2x(op, tdx.shape, tdy.shape);
      c.activate();
      device_ops::writing(c, &tdx);
      device_ops::upsample2x_backward(c, tdx.shape, tdy.data, tdx.data);
    });
  }

  static cae_status mse_loss(cae_context ctx, cae_tensor pred, cae_tensor target, cae_tensor loss,
                             cae_tensor grad) {
    return guard(ctx, [&] {
      const char* op = "mse_loss";
      Context& c = context_argument(ctx, op);
      Tensor& tpred = *tensor_argument(c, pred, op, "pred");
      Tensor& ttarget = *tensor_argument(c, target, op, "target");
      Tensor& tloss = *tensor_argument(c, loss, op, "loss");
      Tensor* tgrad = optional_tensor_argument(c, grad, op, "grad");
      check_mse(tpred.shape, ttarget.shape, tloss.shape, tgrad ? &tgrad->shape : nullptr);
      c.activate();
      device_ops::writing(c, &tloss);
      device_ops::writing(c, tgrad);
      device_ops::mse_loss(c, tpred, ttarget, tloss, tgrad);
    });
  }

  static cae_status sgd_step(cae_context ctx, cae_tensor param, cae_tensor grad,
                             cae_tensor velocity, float learning_rate, float momentum,
                             float weight_decay) {
    return guard(ctx, [&] {
      const char* op = "sgd_step";
      Context& c = context_argument(ctx, op);
      Tensor& tparam = *tensor_argument(c, param, op, "param");
      Tensor& tgrad = *tensor_argument(c, grad, op, "grad");
      Tensor* tvelocity = optional_tensor_argument(c, velocity, op, "velocity");
      check_sgd(tparam.shape, tgrad.shape, tvelocity ? &tvelocity->shape : nullptr, learning_rate,
                momentum, weight_decay);
      c.activate();
      device_ops::writing(c, &tparam);
      device_ops::writing(c, tvelocity);
      device_ops::sgd_step(c, tparam, tgrad, tvelocity, learning_rate, momentum, weight_decay);
    });
  }

  static cae_status adam_step(cae_context ctx, cae_tensor param, cae_tensor grad, cae_tensor m,
                              cae_tensor v, const cae_adam_params* params) {
    return guard(ctx, [&] {
      const char* op = "adam_step";
      Context& c = context_argument(ctx, op);
      Tensor& tparam = *tensor_argument(c, param, op, "param");
      Tensor& tgrad = *tensor_argument(c, grad, op, "grad");
      Tensor& tm = *tensor_argument(c, m, op, "m");
      Tensor& tv = *tensor_argument(c, v, op, "v");
      check_adam(tparam.shape, tgrad.shape, tm.shape, tv.shape, params);
      c.activate();
      device_ops::writing(c, &tparam);
      device_ops::writing(c, &tm);
      device_ops::writing(c, &tv);
      device_ops::adam_step(c, tparam, tgrad, tm, tv, *params);
    });
  }

  static cae_status kernel_matrix(cae_context ctx, cae_tensor x, cae_tensor y, cae_tensor k,
                                  int32_t kind, float gamma) {
    return guard(ctx, [&] {
      const char* op = "kernel_matrix";
      Context& c = context_argument(ctx, op);
      const Tensor& tx = *tensor_argument(c, x, op, "x");
      const Tensor& ty = *tensor_argument(c, y, op, "y");  // may be x
      Tensor& tk = *tensor_argument(c, k, op, "k");
      const KernelDims dims = check_kernel_matrix(tx.shape, ty.shape, tk.shape, kind, gamma);
      c.activate();
      device_ops::writing(c, &tk);
      device_ops::kernel_matrix(c, tx.data, ty.data, tk.data, dims, kind, gamma);
    });
  }
};

}  // namespace cuda
}  // namespace cae_plugin

// In a backend's entry namespace: the tensor and op members of the table as
// calls to TensorEntries<context> and OpEntries<context>. Real functions with
// the ABI's signatures, so CAE_DEFINE_BACKEND_ENTRY can take them by name.
#define CAE_DEFINE_CUDA_OP_MEMBERS(context)                                                      \
  using TensorMembers = cae_plugin::cuda::TensorEntries<context>;                                \
  using OpMembers = cae_plugin::cuda::OpEntries<context>;                                        \
  cae_status tensor_alloc(cae_context ctx, int32_t ndim, const int64_t* dims, cae_tensor* out) { \
    return TensorMembers::tensor_alloc(ctx, ndim, dims, out);                                    \
  }                                                                                              \
  void tensor_free(cae_context ctx, cae_tensor t) { TensorMembers::tensor_free(ctx, t); }        \
  cae_status tensor_upload(cae_context ctx, cae_tensor t, const float* src, size_t count) {      \
    return TensorMembers::tensor_upload(ctx, t, src, count);                                     \
  }                                                                                              \
  cae_status tensor_download(cae_context ctx, cae_tensor t, float* dst, size_t count) {          \
    return TensorMembers::tensor_download(ctx, t, dst, count);                                   \
  }                                                                                              \
  cae_status conv2d_forward(cae_context ctx, cae_tensor x, cae_tensor w, cae_tensor b,           \
                            cae_tensor y, int32_t fuse_relu) {                                   \
    return OpMembers::conv2d_forward(ctx, x, w, b, y, fuse_relu);                                \
  }                                                                                              \
  cae_status conv2d_backward(cae_context ctx, cae_tensor x, cae_tensor w, cae_tensor dy,         \
                             cae_tensor dx, cae_tensor dw, cae_tensor db) {                      \
    return OpMembers::conv2d_backward(ctx, x, w, dy, dx, dw, db);                                \
  }                                                                                              \
  cae_status relu_forward(cae_context ctx, cae_tensor x, cae_tensor y) {                         \
    return OpMembers::relu_forward(ctx, x, y);                                                   \
  }                                                                                              \
  cae_status relu_backward(cae_context ctx, cae_tensor y, cae_tensor dy, cae_tensor dx) {        \
    return OpMembers::relu_backward(ctx, y, dy, dx);                                             \
  }                                                                                              \
  cae_status maxpool2x2_forward(cae_context ctx, cae_tensor x, cae_tensor y) {                   \
    return OpMembers::maxpool2x2_forward(ctx, x, y);                                             \
  }                                                                                              \
  cae_status maxpool2x2_backward(cae_context ctx, cae_tensor x, cae_tensor dy, cae_tensor dx) {  \
    return OpMembers::maxpool2x2_backward(ctx, x, dy, dx);                                       \
  }                                                                                              \
  cae_status upsample2x_forward(cae_context ctx, cae_tensor x, cae_tensor y) {                   \
    return OpMembers::upsample2x_forward(ctx, x, y);                                             \
  }                                                                                              \
  cae_status upsample2x_backward(cae_context ctx, cae_tensor dy, cae_tensor dx) {                \
    return OpMembers::upsample2x_backward(ctx, dy, dx);                                          \
  }                                                                                              \
  cae_status mse_loss(cae_context ctx, cae_tensor pred, cae_tensor target, cae_tensor loss,      \
                      cae_tensor grad) {                                                         \
    return OpMembers::mse_loss(ctx, pred, target, loss, grad);                                   \
  }                                                                                              \
  cae_status sgd_step(cae_context ctx, cae_tensor param, cae_tensor grad, cae_tensor velocity,   \
                      float learning_rate, float momentum, float weight_decay) {                 \
    return OpMembers::sgd_step(ctx, param, grad, velocity, learning_rate, momentum,              \
                               weight_decay);                                                    \
  }                                                                                              \
  cae_status adam_step(cae_context ctx, cae_tensor param, cae_tensor grad, cae_tensor m,         \
                       cae_tensor v, const cae_adam_params* params) {                            \
    return OpMembers::adam_step(ctx, param, grad, m, v, params);                                 \
  }                                                                                              \
  cae_status kernel_matrix(cae_context ctx, cae_tensor x, cae_tensor y, cae_tensor k,            \
                           int32_t kind, float gamma) {                                          \
    return OpMembers::kernel_matrix(ctx, x, y, k, kind, gamma);                                  \
  }
