// The fused layers of a v4 graph at run time: the plan (v4_fusion_plan.hpp,
// which nodes and why), the buffers the fused kernels keep between a layer's
// forward and backward nodes, and the kernels' launches in the walk.
#pragma once

#include <cae/backend.h>

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "device_memory.hpp"
#include "graph_description.hpp"
#include "runtime_context.hpp"
#include "v4_fusion_plan.hpp"
#include "v4_weight_forms.hpp"

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
           plan_.steps[n] == FusionPlan::Step::backward ||
           plan_.steps[n] == FusionPlan::Step::copying;
  }
  // What runs at node n's place, for messages ("fused with its max-pool").
  const char* describe(size_t n) const;
  // Runs the fused kernel at node n's place on the walk's tensors (after the
  // context's queued work), and gives the tensors it wrote new versions.
  void run(size_t n, cae_cuda::Context& ctx, const std::vector<cae_tensor>& tensors);

 private:
  void run_copying(const CopyingResample& r, cae_cuda::Context& ctx,
                   const std::vector<cae_tensor>& tensors);

  struct Buffers {
    cae_cuda::DeviceMemory choices, partials;
  };
  // The layers whose weight forms are made on the side stream while the
  // fused first layer runs (v4_weight_forms.hpp), on the walk's tensors.
  std::vector<LayerWeights> gemm_weights(const std::vector<cae_tensor>& tensors) const;

  FusionPlan plan_;
  std::vector<Buffers> buffers_;  // per fused layer
  // The layers whose weight forms a step multiplies: dimensions, weights' tensor.
  std::vector<std::pair<cae_plugin::ConvDims, int32_t>> gemm_weights_;
};

}  // namespace cae_v4
