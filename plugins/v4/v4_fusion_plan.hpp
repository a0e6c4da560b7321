// Which nodes of a graph v4 runs as fused kernels instead of op by op: the
// plan, found once when the graph is compiled by matching the description
// (host code without CUDA; v4_graph_fusion.hpp runs it):
//
//   pooled convolution (v4_pooled_conv.hpp, an encoder's first layer): node i
//   conv2d_forward with fuse_relu on at most 4 input channels, node i+1
//   maxpool2x2_forward of its output T, and T (internal) read by nothing else
//   except, in a training step, the backward pass's maxpool2x2_backward
//   (x = T, dx = D), relu_backward (y = T, in place on D) and conv2d_backward
//   (the same x, dy = D, no dx) on consecutive nodes, D internal and read by
//   nothing else. The forward runs at node i, the backward at the
//   conv2d_backward's place; the pool and the two backward nodes before the
//   convolution's are skipped. T and D are never written.
//
//   upsampled convolution (v4_upsampled_conv.hpp, a decoder's last layer):
//   node i upsample2x_forward of t into U (internal), node i+1
//   conv2d_forward of U without ReLU (3x3, at most 4 outputs), and U read by
//   nothing else except, in a training step, one conv2d_backward (x = U,
//   dx = dU) whose dU (internal) only one later upsample2x_backward reads
//   (into dt), optionally followed by relu_backward (y = t, in place on dt);
//   between the two, no node touches dt or writes t. The forward runs at
//   node i+1, the backward (dt, dw, db, the ReLU's mask merged) at the
//   conv2d_backward's place; the upsample, its backward and that ReLU
//   backward are skipped. U and dU are never written.
//
//   copying resample (v4_bf16_copies.hpp): a maxpool2x2 or upsample2x node,
//   forward or backward, whose output a later convolution's BF16 GEMM reads
//   (conv2d_forward or conv2d_backward as x; conv2d_backward as dy). v4 runs
//   the node itself with the same kernel and has it write the output's BF16
//   copy beside the FP32 values, so that the GEMM converts nothing. A
//   relu_backward right after a backward resample, in place on its output,
//   is merged into it as the op path merges it (its mask is the pool's input
//   or the upsample's small ReLU output), and the copy is of the masked
//   gradient. The copy is tagged with the version of the tensor it copies: a
//   reader that finds a later version converts for itself.
//
// Anything else runs node by node, so a graph with no match computes exactly
// what the plain walk does. The option graph-fusion=off turns matching off.
#pragma once

#include <cae/backend.h>

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "graph_description.hpp"
#include "op_shapes.hpp"

namespace cae_v4 {

constexpr size_t kNoNode = ~size_t(0);

// One layer run fused.
struct FusedLayer {
  enum class Kind : uint8_t { pooled, upsampled };
  Kind kind = Kind::pooled;
  cae_plugin::ConvDims dims{};
  // Forward: input (pooled: the image; upsampled: the small t), weights,
  // bias, output (pooled: the pooled tensor; upsampled: y).
  int32_t x = -1, w = -1, b = -1, out = -1;
  // Backward (-1: forward only): the output's gradient, dw, db; upsampled:
  // dt, and whether t's ReLU backward is merged.
  int32_t dout = -1, dw = -1, db = -1, dsmall = -1;
  bool relu_small = false;
  size_t forward_node = 0, backward_node = kNoNode;
  bool has_backward() const { return backward_node != kNoNode; }
};

// One resample node run with its output's BF16 copy.
struct CopyingResample {
  int32_t op = 0;           // the node's op (max-pool or upsample, forward or backward)
  int32_t x = -1, dy = -1;  // the node's inputs (forward: x; pool backward: both)
  int32_t out = -1;         // what it writes (y, or dx) and copies
  int32_t relu_y = -1;      // backward: the merged ReLU backward's y, or -1
  bool gradient() const { return dy >= 0; }
};

struct FusionPlan {
  enum class Step : uint8_t { node, skipped, forward, backward, copying };
  std::vector<Step> steps;    // per node
  std::vector<int> layer_of;  // per node: its fused layer or copying resample, or -1
  std::vector<FusedLayer> layers;
  std::vector<CopyingResample> resamples;
};

// The plan for `description`; with !enabled, every node runs as itself.
FusionPlan plan_fusions(const cae_plugin::GraphDescription& description, bool enabled);

}  // namespace cae_v4
