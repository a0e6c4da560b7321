// Which nodes of a graph v4 runs as fused kernels instead of op by op.
//
// Found once, when the graph is compiled, by matching the description:
//
//   pooled convolution (v4_pooled_conv.hpp): node i conv2d_forward with
//   fuse_relu on a few input channels, node i+1 maxpool2x2_forward of its
//   output T, and T (an internal tensor) read by nothing else except, in a
//   training step, the backward pass's maxpool2x2_backward (x = T, dy = G,
//   dx = D), relu_backward (y = T, in place on D) and conv2d_backward
//   (the same x, dy = D, no dx) on consecutive nodes, D internal and read by
//   nothing else. The forward runs at node i (node i+1 is skipped), the
//   backward at the conv2d_backward's place (the two before it skipped).
//   T and D are allocated but never written.
//
// Anything else runs node by node, so a graph with no match computes exactly
// what the plain walk does. The option graph-fusion=off turns matching off.
#pragma once

#include <cae/backend.h>

#include <cstddef>
#include <cstdint>
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
  // Runs the fused kernel at node n's place on the walk's tensors (after the
  // context's queued work), and gives the tensors it wrote new versions.
  void run(size_t n, cae_cuda::Context& ctx, const std::vector<cae_tensor>& tensors);

 private:
  enum class Step : uint8_t { node, skipped, forward, backward };
  struct PooledConv {
    cae_plugin::ConvDims dims{};
    int32_t x = -1, w = -1, b = -1, pooled = -1;  // graph tensors of the forward
    int32_t dpooled = -1, dw = -1, db = -1;       // and of the backward (-1: none)
    cae_cuda::DeviceMemory choices, partials;
  };
  bool match(const cae_plugin::GraphDescription& d, size_t i, PooledConv& out, size_t& backward) const;

  std::vector<Step> step_;      // per node
  std::vector<int> fusion_of_;  // per node: its fusion, or -1
  std::vector<PooledConv> fusions_;
  std::vector<std::vector<std::pair<size_t, int>>> uses_;  // per tensor: (node, arg)
};

}  // namespace cae_v4
