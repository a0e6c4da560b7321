// Issuing deferred work (see deferred_work.hpp), and the argument access that
// every entry point goes through.
#include "runtime_entry.hpp"
#include "runtime_ops.hpp"
#include "tensor_arguments.hpp"

namespace cae_cuda {

Context& enter_keeping_deferred(cae_context ctx, const char* op) {
  Context& context = cae_plugin::context_argument(ctx, op);
  context.activate();
  return context;
}

Context& enter(cae_context ctx, const char* op) {
  Context& c = enter_keeping_deferred(ctx, op);
  if (!c.deferred.empty()) flush_deferred(c);
  return c;
}

void flush_deferred(Context& ctx) {
  // Taken off the queue before it runs: a failure is reported once, not forever.
  const PendingResampleBackward resample = ctx.deferred.resample;
  ctx.deferred.resample = PendingResampleBackward{};
  std::vector<AdamTensor> adam;
  adam.swap(ctx.deferred.adam);
  if (resample.kind == PendingResampleBackward::Kind::maxpool) {
    maxpool2x2_backward_recorded(ctx, *resample.x, resample.dy->data, resample.dx->data, false);
  } else if (resample.kind == PendingResampleBackward::Kind::upsample) {
    upsample2x_backward(ctx, resample.dy->shape, resample.dy->data, resample.dx->data, nullptr);
  }
  if (!adam.empty()) adam_steps(ctx, adam.data(), static_cast<int>(adam.size()));
}

cae_tensor_s* optional_tensor_arg(const Context& ctx, cae_tensor t, const char* op,
                                  const char* name) {
  return cae_plugin::optional_tensor_argument(ctx, t, op, name);
}

cae_tensor_s& tensor_arg(const Context& ctx, cae_tensor t, const char* op, const char* name) {
  return *cae_plugin::tensor_argument(ctx, t, op, name);
}

}  // namespace cae_cuda
