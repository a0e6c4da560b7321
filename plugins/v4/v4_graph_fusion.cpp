#include "v4_graph_fusion.hpp"

#include "runtime_entry.hpp"
#include "v4_bf16_copies.hpp"
#include "v4_fused_shapes.hpp"
#include "v4_pooled_conv.hpp"
#include "v4_upsampled_conv.hpp"

namespace cae_v4 {

GraphFusions::GraphFusions(cae_cuda::Context& ctx, const cae_plugin::GraphDescription& d,
                           bool enabled)
    : plan_(plan_fusions(d, enabled)), buffers_(plan_.layers.size()) {
  for (size_t i = 0; i < plan_.layers.size(); ++i) {
    const FusedLayer& layer = plan_.layers[i];
    if (!layer.has_backward()) continue;
    const bool pooled = layer.kind == FusedLayer::Kind::pooled;
    if (pooled) {
      buffers_[i].choices = cae_cuda::DeviceMemory(pooled_conv_choice_bytes(layer.dims), ctx.memory,
                                                   "a fused layer's max-pool choices");
    }
    buffers_[i].partials = cae_cuda::DeviceMemory(
        pooled ? pooled_conv_partial_bytes(layer.dims) : upsampled_conv_partial_bytes(layer.dims),
        ctx.memory, "a fused layer's weight-gradient partial sums");
  }
}

const char* GraphFusions::describe(size_t n) const {
  const FusedLayer& f = plan_.layers[size_t(plan_.layer_of[n])];
  return f.kind == FusedLayer::Kind::pooled ? "fused with its max-pool"
                                            : "fused with the upsampling before it";
}

void GraphFusions::run(size_t n, cae_cuda::Context& ctx, const std::vector<cae_tensor>& t) {
  const int index = plan_.layer_of[n];
  const FusedLayer& f = plan_.layers[size_t(index)];
  Buffers& buffers = buffers_[size_t(index)];
  auto data = [&](int32_t tensor) { return t[size_t(tensor)]->data; };
  cae_cuda::flush_deferred(ctx);  // queued work of earlier nodes comes first
  const bool forward = plan_.steps[n] == FusionPlan::Step::forward;
  const cae_plugin::ConvDims& d = f.dims;
  // The BF16 copy of the tensor the kernel writes for the next layer's GEMMs
  // (the pooled output; the gradient dt of t), made in the same pass.
  Bf16Copy copy;
  int32_t copied = -1;
  if (f.kind == FusedLayer::Kind::pooled && forward) {
    copied = f.out;
    copy = bf16_copy_for_writing(ctx, CopyOf::activation, d.N, d.O, d.H / 2, d.W / 2);
    begin_refill(copy);
    pooled_conv_forward(ctx, d, data(f.x), data(f.w), data(f.b), data(f.out),
                        f.has_backward() ? buffers.choices.as<uint8_t>() : nullptr, copy.data);
  } else if (f.kind == FusedLayer::Kind::pooled) {
    pooled_conv_backward(ctx, d, data(f.x), buffers.choices.as<uint8_t>(), data(f.dout),
                         buffers.partials.as(), data(f.dw), data(f.db));
  } else if (forward) {
    upsampled_conv_forward(ctx, d, data(f.x), data(f.w), data(f.b), data(f.out));
  } else {
    copied = f.dsmall;
    copy = bf16_copy_for_writing(ctx, CopyOf::gradient, d.N, d.C, d.H / 2, d.W / 2);
    begin_refill(copy);
    upsampled_conv_backward(ctx, d, data(f.x), data(f.w), data(f.dout), f.relu_small,
                            data(f.dsmall), copy.data, buffers.partials.as(), data(f.dw),
                            data(f.db));
  }
  if (forward) {
    ctx.wrote(t[size_t(f.out)]);
  } else {
    ctx.wrote(t[size_t(f.dw)]);
    ctx.wrote(t[size_t(f.db)]);
    if (f.dsmall >= 0) ctx.wrote(t[size_t(f.dsmall)]);
  }
  if (copied >= 0) tag(copy, *t[size_t(copied)]);
}

}  // namespace cae_v4
