#include "v4_fusion_plan.hpp"

#include <utility>

#include "graph_interpreter.hpp"
#include "v4_fused_shapes.hpp"

namespace cae_v4 {
namespace {

bool internal(const cae_plugin::GraphDescription& d, int32_t t) {
  return t >= 0 && d.tensors[size_t(t)].role == CAE_GRAPH_INTERNAL;
}

// On a match: the nodes to skip, and where the forward and backward run.
struct Match {
  std::vector<size_t> skipped;
  size_t forward = 0, backward = kNoNode;
};

struct Planner {
  explicit Planner(const cae_plugin::GraphDescription& d) : uses_(d.tensors.size()) {
    for (size_t n = 0; n < d.nodes.size(); ++n) {
      const int args = cae_plugin::graph_op_arg_count(d.nodes[n].op);
      for (int a = 0; a < args; ++a) {
        if (d.nodes[n].args[a] >= 0) uses_[size_t(d.nodes[n].args[a])].push_back({n, a});
      }
    }
  }
  bool match_pooled(const cae_plugin::GraphDescription& d, size_t i, FusedLayer& out,
                    Match& m) const;
  bool match_upsampled(const cae_plugin::GraphDescription& d, size_t i, FusedLayer& out,
                       Match& m) const;
  bool match_copying(const cae_plugin::GraphDescription& d, size_t n,
                     const std::vector<FusionPlan::Step>& steps, CopyingResample& out) const;
  // Whether a node after `n` that runs as itself reads `t` as a convolution's
  // BF16 GEMM operand: x of either pass (activation), dy (gradient), on a
  // convolution v4 runs as its BF16 GEMMs.
  bool read_by_gemm(const cae_plugin::GraphDescription& d, size_t n, int32_t t, bool gradient,
                    const std::vector<FusionPlan::Step>& steps) const;
  // Whether a node strictly between `after` and `before` touches `touched`
  // or writes `written` (-1: none), from the index of uses.
  bool between(const cae_plugin::GraphDescription& d, size_t after, size_t before, int32_t touched,
               int32_t written) const;

  std::vector<std::vector<std::pair<size_t, int>>> uses_;  // per tensor: (node, arg)
};

bool Planner::between(const cae_plugin::GraphDescription& d, size_t after, size_t before,
                      int32_t touched, int32_t written) const {
  auto inside = [&](size_t n) { return n > after && n < before; };
  for (const auto& [node, arg] : uses_[size_t(touched)]) {
    if (inside(node)) return true;
  }
  if (written < 0) return false;
  for (const auto& [node, arg] : uses_[size_t(written)]) {
    if (inside(node) && cae_plugin::graph_arg_written(d.nodes[node].op, arg)) return true;
  }
  return false;
}

// Nodes i and i+1: conv2d_forward (ReLU fused) and the max-pool of its output.
bool Planner::match_pooled(const cae_plugin::GraphDescription& d, size_t i, FusedLayer& out,
                           Match& m) const {
  const cae_graph_node& conv = d.nodes[i];
  const cae_graph_node& pool = d.nodes[i + 1];
  if (conv.op != CAE_GRAPH_CONV2D_FORWARD || conv.fuse_relu != 1 ||
      pool.op != CAE_GRAPH_MAXPOOL2X2_FORWARD) {
    return false;
  }
  const int32_t full = conv.args[3];
  if (pool.args[0] != full || !internal(d, full)) return false;
  out = FusedLayer{};
  out.kind = FusedLayer::Kind::pooled;
  out.dims = cae_plugin::graph_conv_dims(d, conv);
  if (!pooled_conv_supported(out.dims)) return false;
  out.x = conv.args[0];
  out.w = conv.args[1];
  out.b = conv.args[2];
  out.out = pool.args[1];
  // The other uses of the full-size output: none, or the backward pass's
  // max-pool and ReLU backward on consecutive nodes.
  size_t pool_backward = kNoNode;
  int relu_uses = 0;
  for (const auto& [node, arg] : uses_[size_t(full)]) {
    if (node == i || node == i + 1) continue;
    const int32_t op = d.nodes[node].op;
    if (op == CAE_GRAPH_MAXPOOL2X2_BACKWARD && arg == 0 && pool_backward == kNoNode) {
      pool_backward = node;
    } else if (op == CAE_GRAPH_RELU_BACKWARD && arg == 0 && pool_backward != kNoNode &&
               node == pool_backward + 1) {
      ++relu_uses;
    } else {
      return false;
    }
  }
  m = Match{{i + 1}, i, kNoNode};
  if (pool_backward == kNoNode) return true;
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
  out.dout = dpooled;
  out.dw = dw;
  out.db = db;
  m.skipped.push_back(pool_backward);
  m.skipped.push_back(pool_backward + 1);
  m.backward = pool_backward + 2;
  return true;
}

// Nodes i and i+1: upsample2x_forward into U and conv2d_forward of U.
bool Planner::match_upsampled(const cae_plugin::GraphDescription& d, size_t i, FusedLayer& out,
                              Match& m) const {
  const cae_graph_node& up = d.nodes[i];
  const cae_graph_node& conv = d.nodes[i + 1];
  if (up.op != CAE_GRAPH_UPSAMPLE2X_FORWARD || conv.op != CAE_GRAPH_CONV2D_FORWARD ||
      conv.fuse_relu != 0) {
    return false;
  }
  const int32_t small = up.args[0], big = up.args[1];
  if (conv.args[0] != big || !internal(d, big) || small == big) return false;
  out = FusedLayer{};
  out.kind = FusedLayer::Kind::upsampled;
  out.dims = cae_plugin::graph_conv_dims(d, conv);
  if (!upsampled_conv_supported(out.dims)) return false;
  out.x = small;
  out.w = conv.args[1];
  out.b = conv.args[2];
  out.out = conv.args[3];
  if (out.out == small) return false;
  // Its rounding differs from the op path's (which is not this kernel): only
  // a loss may read y, so that no max-pool or ReLU decides on it.
  for (const auto& use : uses_[size_t(out.out)]) {
    if (use.first != i + 1 && d.nodes[use.first].op != CAE_GRAPH_MSE_LOSS) return false;
  }
  // The other uses of U: none, or one conv2d_backward reading it as x.
  size_t conv_backward = kNoNode;
  for (const auto& [node, arg] : uses_[size_t(big)]) {
    if (node == i || node == i + 1) continue;
    if (d.nodes[node].op != CAE_GRAPH_CONV2D_BACKWARD || arg != 0 || conv_backward != kNoNode) {
      return false;
    }
    conv_backward = node;
  }
  m = Match{{i}, i + 1, kNoNode};
  if (conv_backward == kNoNode) return true;
  const cae_graph_node& conv_grad = d.nodes[conv_backward];
  const int32_t dy = conv_grad.args[2], dbig = conv_grad.args[3];
  const int32_t dw = conv_grad.args[4], db = conv_grad.args[5];
  if (conv_grad.args[1] != out.w || !internal(d, dbig)) return false;
  // dU: written there, read by one later upsample2x_backward, nothing else.
  size_t up_backward = kNoNode;
  for (const auto& [node, arg] : uses_[size_t(dbig)]) {
    if (node == conv_backward) continue;
    if (d.nodes[node].op != CAE_GRAPH_UPSAMPLE2X_BACKWARD || arg != 0 || node < conv_backward ||
        up_backward != kNoNode) {
      return false;
    }
    up_backward = node;
  }
  if (up_backward == kNoNode) return false;
  const int32_t dsmall = d.nodes[up_backward].args[1];
  for (int32_t t : {small, dy, out.w}) {
    if (dsmall == t || dw == t || db == t) return false;
  }
  // The ReLU backward of t right after, in place on dt: merged.
  bool relu = false;
  if (up_backward + 1 < d.nodes.size()) {
    const cae_graph_node& next = d.nodes[up_backward + 1];
    relu = next.op == CAE_GRAPH_RELU_BACKWARD && next.args[0] == small && next.args[1] == dsmall &&
           next.args[2] == dsmall;
  }
  // dt is written at the conv2d_backward's place instead of the upsample
  // backward's, and the mask read there: nothing between may see the difference.
  if (between(d, conv_backward, up_backward, dsmall, small)) return false;
  out.dout = dy;
  out.dw = dw;
  out.db = db;
  out.dsmall = dsmall;
  out.relu_small = relu;
  m.skipped.push_back(up_backward);
  if (relu) m.skipped.push_back(up_backward + 1);
  m.backward = conv_backward;
  return true;
}

bool Planner::read_by_gemm(const cae_plugin::GraphDescription& d, size_t n, int32_t t,
                           bool gradient, const std::vector<FusionPlan::Step>& steps) const {
  for (const auto& [node, arg] : uses_[size_t(t)]) {
    if (node <= n || steps[node] != FusionPlan::Step::node) continue;
    const int32_t op = d.nodes[node].op;
    const bool forward = op == CAE_GRAPH_CONV2D_FORWARD;
    if (!forward && op != CAE_GRAPH_CONV2D_BACKWARD) continue;
    if (gradient ? forward || arg != 2 : arg != 0) continue;
    // A convolution on the TF32 path (or the thin-input kernel) reads FP32:
    // a copy for it would be a pass over the tensor that nothing reads.
    if (gemm_reads_bf16_x(cae_plugin::graph_conv_dims(d, d.nodes[node]), forward)) return true;
  }
  return false;
}

bool Planner::match_copying(const cae_plugin::GraphDescription& d, size_t n,
                            const std::vector<FusionPlan::Step>& steps,
                            CopyingResample& out) const {
  const cae_graph_node& node = d.nodes[n];
  out = CopyingResample{};
  out.op = node.op;
  switch (node.op) {
    case CAE_GRAPH_MAXPOOL2X2_FORWARD:
    case CAE_GRAPH_UPSAMPLE2X_FORWARD:
      out.x = node.args[0];
      out.out = node.args[1];
      break;
    case CAE_GRAPH_MAXPOOL2X2_BACKWARD:
      out.x = node.args[0];
      out.dy = node.args[1];
      out.out = node.args[2];
      break;
    case CAE_GRAPH_UPSAMPLE2X_BACKWARD:
      out.dy = node.args[0];
      out.out = node.args[1];
      break;
    default:
      return false;
  }
  if (out.out < 0 || out.out == out.x || out.out == out.dy) return false;
  if (!read_by_gemm(d, n, out.out, out.gradient(), steps)) return false;
  if (!out.gradient() || n + 1 >= d.nodes.size() || steps[n + 1] != FusionPlan::Step::node) {
    return true;
  }
  // The op path's merge (runtime entry_layers.cpp): relu_backward in place on
  // the output, its y the pool's input, or for the upsample any tensor but
  // the two gradients.
  const cae_graph_node& next = d.nodes[n + 1];
  const int32_t y = next.args[0];
  const bool merged = next.op == CAE_GRAPH_RELU_BACKWARD && next.args[1] == out.out &&
                      next.args[2] == out.out && y >= 0 && y != out.out && y != out.dy &&
                      (node.op == CAE_GRAPH_MAXPOOL2X2_BACKWARD ? y == out.x : true);
  if (merged) {
    out.relu_y = y;
  } else if (next.op == CAE_GRAPH_RELU_BACKWARD && next.args[2] == out.out) {
    return false;  // a ReLU backward the op path would not merge rewrites it at once
  }
  return true;
}

}  // namespace

FusionPlan plan_fusions(const cae_plugin::GraphDescription& d, bool enabled) {
  using Step = FusionPlan::Step;
  FusionPlan plan;
  plan.steps.assign(d.nodes.size(), Step::node);
  plan.layer_of.assign(d.nodes.size(), -1);
  if (!enabled) return plan;
  const Planner planner(d);
  for (size_t i = 0; i + 1 < d.nodes.size(); ++i) {
    if (plan.steps[i] != Step::node || plan.steps[i + 1] != Step::node) continue;
    FusedLayer layer;
    Match m;
    if (!planner.match_pooled(d, i, layer, m) && !planner.match_upsampled(d, i, layer, m)) continue;
    bool free = plan.steps[m.forward] == Step::node &&
                (m.backward == kNoNode || plan.steps[m.backward] == Step::node);
    for (size_t n : m.skipped) free = free && plan.steps[n] == Step::node;
    if (!free) continue;  // a node another fused layer already took
    const int index = int(plan.layers.size());
    for (size_t n : m.skipped) plan.steps[n] = Step::skipped;
    plan.steps[m.forward] = Step::forward;
    plan.layer_of[m.forward] = index;
    layer.forward_node = m.forward;
    layer.backward_node = m.backward;
    if (m.backward != kNoNode) {
      plan.steps[m.backward] = Step::backward;
      plan.layer_of[m.backward] = index;
    }
    plan.layers.push_back(layer);
  }
  for (size_t n = 0; n < d.nodes.size(); ++n) {
    CopyingResample r;
    if (plan.steps[n] != Step::node || !planner.match_copying(d, n, plan.steps, r)) continue;
    plan.steps[n] = Step::copying;
    plan.layer_of[n] = int(plan.resamples.size());
    if (r.relu_y >= 0) plan.steps[n + 1] = Step::skipped;
    plan.resamples.push_back(r);
  }
  return plan;
}

}  // namespace cae_v4
