// The fused layers of a v4 graph at run time: the plan (v4_fusion_plan.hpp,
// which nodes and why), the buffers the fused kernels keep between a layer's
// forward and backward nodes, and the kernels' launches in the walk.
#pragma once

#include <cae/backend.h>

#include <cstddef>
#include <vector>

#include "device_memory.hpp"
#include "graph_description.hpp"
#include "runtime_context.hpp"
#include "v4_fusion_plan.hpp"

namespace cae_v4 {

class GraphFusions {
 public:
  // Plans `description` (nothing when !enabled) and allocates what the fused
  // kernels keep between nodes (the pool's choices, partial sums).
  GraphFusions(cae_cuda::Context& ctx, const cae_plugin::GraphDescription& description,
               bool enabled);

  // Whether node n is computed by a fused kernel run at another node's place.
  bool skips(size_t n) const { return plan_.steps[n] == FusionPlan::Step::skipped; }
  // Whether node n's place runs a fused kernel instead of the node.
  bool replaces(size_t n) const {
    return plan_.steps[n] == FusionPlan::Step::forward ||
           plan_.steps[n] == FusionPlan::Step::backward;
  }
  // What runs at node n's place, for messages ("fused with its max-pool").
  const char* describe(size_t n) const;
  // Runs the fused kernel at node n's place on the walk's tensors (after the
  // context's queued work), and gives the tensors it wrote new versions.
  void run(size_t n, cae_cuda::Context& ctx, const std::vector<cae_tensor>& tensors);

 private:
  struct Buffers {
    cae_cuda::DeviceMemory choices, partials;
  };
  FusionPlan plan_;
  std::vector<Buffers> buffers_;  // per fused layer
};

}  // namespace cae_v4
