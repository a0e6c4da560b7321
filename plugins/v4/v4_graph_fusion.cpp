#include "v4_graph_fusion.hpp"

#include "graph_interpreter.hpp"
#include "runtime_entry.hpp"
#include "runtime_ops.hpp"
#include "v4_bf16_copies.hpp"
#include "v4_fused_shapes.hpp"
#include "v4_pooled_conv.hpp"
#include "v4_side_by_side.hpp"
#include "v4_upsampled_conv.hpp"
#include "v4_weight_forms.hpp"

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
  if (plan_.layers.empty()) return;
  for (size_t n = 0; n < d.nodes.size(); ++n) {
    const cae_graph_node& node = d.nodes[n];
    if (plan_.steps[n] != FusionPlan::Step::node ||
        (node.op != CAE_GRAPH_CONV2D_FORWARD && node.op != CAE_GRAPH_CONV2D_BACKWARD)) {
      continue;
    }
    const cae_plugin::ConvDims dims = cae_plugin::graph_conv_dims(d, node);
    const int32_t w = node.args[1];
    bool listed = false;
    for (const auto& layer : gemm_weights_) listed = listed || layer.second == w;
    if (!listed && multiplies_weight_forms(dims)) gemm_weights_.emplace_back(dims, w);
  }
}

std::vector<LayerWeights> GraphFusions::gemm_weights(const std::vector<cae_tensor>& t) const {
  std::vector<LayerWeights> layers;
  for (const auto& [dims, w] : gemm_weights_) layers.push_back({dims, t[size_t(w)]});
  return layers;
}

const char* GraphFusions::describe(size_t n) const {
  if (plan_.steps[n] == FusionPlan::Step::copying) return "writing its output's BF16 copy";
  const FusedLayer& f = plan_.layers[size_t(plan_.layer_of[n])];
  return f.kind == FusedLayer::Kind::pooled ? "fused with its max-pool"
                                            : "fused with the upsampling before it";
}

void GraphFusions::run(size_t n, cae_cuda::Context& ctx, const std::vector<cae_tensor>& t) {
  const int index = plan_.layer_of[n];
  if (plan_.steps[n] == FusionPlan::Step::copying) {
    run_copying(plan_.resamples[size_t(index)], ctx, t);
    return;
  }
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
    // The later layers' weight forms on the side stream: the first layer's
    // FP32 kernel leaves room beside it, and each form was a pass of its own
    // on the step's stream before its layer's GEMM.
    const SideBySide beside(ctx, !gemm_weights_.empty());
    beside.run([&] { prepare_weight_forms(ctx, gemm_weights(t)); });
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

// The op path's kernel for the node (runtime resample.cu, the max-pool's
// choices recorded and used as the op path does), writing the output's BF16
// copy as well.
void GraphFusions::run_copying(const CopyingResample& r, cae_cuda::Context& ctx,
                               const std::vector<cae_tensor>& t) {
  cae_cuda::flush_deferred(ctx);
  cae_tensor_s& out = *t[size_t(r.out)];
  const cae_plugin::Shape& s = out.shape;  // [N, C, H, W]
  Bf16Copy copy = bf16_copy_for_writing(ctx, r.gradient() ? CopyOf::gradient : CopyOf::activation,
                                        s[0], s[1], s[2], s[3]);
  begin_refill(copy);
  switch (r.op) {
    case CAE_GRAPH_MAXPOOL2X2_FORWARD:
      cae_cuda::maxpool2x2_forward_recording(ctx, *t[size_t(r.x)], out.data, copy.data);
      break;
    case CAE_GRAPH_UPSAMPLE2X_FORWARD:
      cae_cuda::upsample2x_forward(ctx, s, t[size_t(r.x)]->data, out.data, copy.data);
      break;
    case CAE_GRAPH_MAXPOOL2X2_BACKWARD:
      cae_cuda::maxpool2x2_backward_recorded(ctx, *t[size_t(r.x)], t[size_t(r.dy)]->data, out.data,
                                             r.relu_y >= 0, copy.data);
      break;
    default:  // CAE_GRAPH_UPSAMPLE2X_BACKWARD
      cae_cuda::upsample2x_backward(ctx, t[size_t(r.dy)]->shape, t[size_t(r.dy)]->data, out.data,
                                    r.relu_y >= 0 ? t[size_t(r.relu_y)]->data : nullptr, copy.data);
      break;
  }
  ctx.wrote(&out);
  tag(copy, out);
}

}  // namespace cae_v4
