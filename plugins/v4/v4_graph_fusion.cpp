#include "v4_graph_fusion.hpp"

#include <string>
#include <utility>

#include "graph_interpreter.hpp"
#include "runtime_entry.hpp"
#include "v4_pooled_conv.hpp"

namespace cae_v4 {
namespace {

constexpr size_t kNone = ~size_t(0);

bool internal(const cae_plugin::GraphDescription& d, int32_t t) {
  return t >= 0 && d.tensors[size_t(t)].role == CAE_GRAPH_INTERNAL;
}

}  // namespace

GraphFusions::GraphFusions(cae_cuda::Context& ctx, const cae_plugin::GraphDescription& d,
                           bool enabled)
    : step_(d.nodes.size(), Step::node), fusion_of_(d.nodes.size(), -1), uses_(d.tensors.size()) {
  if (!enabled) return;
  for (size_t n = 0; n < d.nodes.size(); ++n) {
    const int args = cae_plugin::graph_op_arg_count(d.nodes[n].op);
    for (int a = 0; a < args; ++a) {
      if (d.nodes[n].args[a] >= 0) uses_[size_t(d.nodes[n].args[a])].push_back({n, a});
    }
  }
  for (size_t i = 0; i + 1 < d.nodes.size(); ++i) {
    if (step_[i] != Step::node || step_[i + 1] != Step::node) continue;
    PooledConv fusion;
    size_t backward = kNone;
    if (!match(d, i, fusion, backward)) continue;
    if (backward != kNone) {
      fusion.choices = cae_cuda::DeviceMemory(pooled_conv_choice_bytes(fusion.dims), ctx.memory,
                                              "a fused layer's max-pool choices");
      fusion.partials = cae_cuda::DeviceMemory(pooled_conv_partial_bytes(fusion.dims), ctx.memory,
                                               "a fused layer's weight-gradient partial sums");
    }
    const int index = int(fusions_.size());
    step_[i] = Step::forward;
    fusion_of_[i] = index;
    step_[i + 1] = Step::skipped;
    if (backward != kNone) {
      step_[backward - 2] = Step::skipped;
      step_[backward - 1] = Step::skipped;
      step_[backward] = Step::backward;
      fusion_of_[backward] = index;
    }
    fusions_.push_back(std::move(fusion));
  }
}

// Node i and i+1: conv2d_forward (ReLU fused) and the max-pool of its output;
// see the header for what else may touch that output. `backward`: the
// conv2d_backward's node, or kNone for a forward-only match.
bool GraphFusions::match(const cae_plugin::GraphDescription& d, size_t i, PooledConv& out,
                         size_t& backward) const {
  const cae_graph_node& conv = d.nodes[i];
  const cae_graph_node& pool = d.nodes[i + 1];
  if (conv.op != CAE_GRAPH_CONV2D_FORWARD || conv.fuse_relu != 1 ||
      pool.op != CAE_GRAPH_MAXPOOL2X2_FORWARD) {
    return false;
  }
  const int32_t full = conv.args[3];
  if (pool.args[0] != full || !internal(d, full)) return false;
  out.dims = cae_plugin::graph_conv_dims(d, conv);
  if (!pooled_conv_supported(out.dims)) return false;
  out.x = conv.args[0];
  out.w = conv.args[1];
  out.b = conv.args[2];
  out.pooled = pool.args[1];
  // The other uses of the full-size output: none, or the backward pass's
  // max-pool and ReLU backward on consecutive nodes.
  size_t pool_backward = kNone;
  int relu_uses = 0;
  for (const auto& [node, arg] : uses_[size_t(full)]) {
    if (node == i || node == i + 1) continue;
    const int32_t op = d.nodes[node].op;
    if (op == CAE_GRAPH_MAXPOOL2X2_BACKWARD && arg == 0 && pool_backward == kNone) {
      pool_backward = node;
    } else if (op == CAE_GRAPH_RELU_BACKWARD && arg == 0 && pool_backward != kNone &&
               node == pool_backward + 1) {
      ++relu_uses;
    } else {
      return false;
    }
  }
  backward = kNone;
  if (pool_backward == kNone) return true;
  if (relu_uses != 1 || pool_backward + 2 >= d.nodes.size()) return false;
  const cae_graph_node& pool_grad = d.nodes[pool_backward];
  const cae_graph_node& relu_grad = d.nodes[pool_backward + 1];
  const cae_graph_node& conv_grad = d.nodes[pool_backward + 2];
  const int32_t dpooled = pool_grad.args[1], dfull = pool_grad.args[2];
  if (!internal(d, dfull) || dpooled == full || dpooled == dfull) return false;
  if (relu_grad.args[1] != dfull || relu_grad.args[2] != dfull) return false;
  if (conv_grad.op != CAE_GRAPH_CONV2D_BACKWARD || conv_grad.args[0] != out.x ||
      conv_grad.args[1] != out.w || conv_grad.args[2] != dfull || conv_grad.args[3] != -1) {
    return false;
  }
  // The full-size gradient exists only between these three nodes.
  for (const auto& use : uses_[size_t(dfull)]) {
    if (use.first < pool_backward || use.first > pool_backward + 2) return false;
  }
  const int32_t dw = conv_grad.args[4], db = conv_grad.args[5];
  for (int32_t read : {out.x, dpooled}) {
    if (dw == read || db == read) return false;
  }
  out.dpooled = dpooled;
  out.dw = dw;
  out.db = db;
  backward = pool_backward + 2;
  return true;
}

void GraphFusions::run(size_t n, cae_cuda::Context& ctx, const std::vector<cae_tensor>& t) {
  PooledConv& f = fusions_[size_t(fusion_of_[n])];
  auto data = [&](int32_t index) { return t[size_t(index)]->data; };
  cae_cuda::flush_deferred(ctx);  // queued work of earlier nodes comes first
  if (step_[n] == Step::forward) {
    pooled_conv_forward(ctx, f.dims, data(f.x), data(f.w), data(f.b), data(f.pooled),
                        f.dw >= 0 ? f.choices.as<uint8_t>() : nullptr);
    ctx.wrote(t[size_t(f.pooled)]);
    return;
  }
  pooled_conv_backward(ctx, f.dims, data(f.x), f.choices.as<uint8_t>(), data(f.dpooled),
                       f.partials.as(), data(f.dw), data(f.db));
  ctx.wrote(t[size_t(f.dw)]);
  ctx.wrote(t[size_t(f.db)]);
}

}  // namespace cae_v4
