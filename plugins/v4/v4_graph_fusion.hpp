// Which nodes of a graph v4 runs as fused kernels instead of op by op.
//
// Found once, when the graph is compiled, by matching the description:
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
// Anything else runs node by node, so a graph with no match computes exactly
// what the plain walk does. The option graph-fusion=off turns matching off.
#pragma once

#include <cae/backend.h>

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "device_memory.hpp"
#include "graph_description.hpp"
#include "op_shapes.hpp"
#include "runtime_context.hpp"

namespace cae_v4 {

class GraphFusions {
 public:
  // Matches `description` (nothing when !enabled) and allocates what the
  // fused kernels keep between nodes (the pool's choices, partial sums).
  GraphFusions(cae_cuda::Context& ctx, const cae_plugin::GraphDescription& description,
               bool enabled);

  // Whether node n is computed by a fused kernel run at another node's place.
  bool skips(size_t n) const { return step_[n] == Step::skipped; }
  // Whether node n's place runs a fused kernel instead of the node.
  bool replaces(size_t n) const {
    return step_[n] == Step::forward || step_[n] == Step::backward;
  }
  // What runs at node n's place, for messages ("fused with its max-pool").
  const char* describe(size_t n) const;
  // Runs the fused kernel at node n's place on the walk's tensors (after the
  // context's queued work), and gives the tensors it wrote new versions.
  void run(size_t n, cae_cuda::Context& ctx, const std::vector<cae_tensor>& tensors);

 private:
  enum class Step : uint8_t { node, skipped, forward, backward };
  enum class Kind : uint8_t { pooled, upsampled };
  struct Fusion {
    Kind kind = Kind::pooled;
    cae_plugin::ConvDims dims{};
    // Forward: input (pooled: the image; upsampled: the small t), weights,
    // bias, output (pooled: the pooled tensor; upsampled: y).
    int32_t x = -1, w = -1, b = -1, out = -1;
    // Backward (-1: forward only): the output's gradient, dw, db; upsampled:
    // dt, and whether t's ReLU backward is merged.
    int32_t dout = -1, dw = -1, db = -1, dsmall = -1;
    bool relu_small = false;
    cae_cuda::DeviceMemory choices, partials;
  };
  using Uses = std::vector<std::pair<size_t, int>>;  // (node, arg)

  // On a match: the nodes to skip, and where the backward runs (or none).
  struct Match {
    std::vector<size_t> skipped;
    size_t forward = 0, backward = ~size_t(0);
  };
  bool match_pooled(const cae_plugin::GraphDescription& d, size_t i, Fusion& out,
                    Match& m) const;
  bool match_upsampled(const cae_plugin::GraphDescription& d, size_t i, Fusion& out,
                       Match& m) const;
  // Whether a node strictly between `after` and `before` touches `touched`
  // or writes `written` (-1: none).
  bool between(const cae_plugin::GraphDescription& d, size_t after, size_t before,
               int32_t touched, int32_t written) const;

  std::vector<Step> step_;      // per node
  std::vector<int> fusion_of_;  // per node: its fusion, or -1
  std::vector<Fusion> fusions_;
  std::vector<Uses> uses_;  // per tensor
};

}  // namespace cae_v4
