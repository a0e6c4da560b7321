// The BF16 forms of a convolution's weights that v4's GEMMs multiply (the
// forward form and the data gradient's, v4_conv.cu), made from the FP32
// weights when their version changed. A layer's own pass makes its forms
// when it finds them stale; a graph makes every layer's at once, on the
// context's side stream beside its fused first layer (v4_graph_fusion.cpp),
// so that the step's GEMMs find them current and no pass waits for them.
#pragma once

#include <vector>

#include "op_shapes.hpp"
#include "runtime_context.hpp"

namespace cae_v4 {

// Whether a convolution of these dimensions multiplies weight forms (the
// implicit GEMMs; not the thin first layer or the TF32 path's narrow layers).
bool multiplies_weight_forms(const cae_plugin::ConvDims& d);

struct LayerWeights {
  cae_plugin::ConvDims dims;
  cae_tensor_s* w;
};

// Makes the forms of every layer whose forms are stale, in one launch (up to
// eight layers per launch), queued on ctx.stream.
void prepare_weight_forms(cae_cuda::Context& ctx, const std::vector<LayerWeights>& layers);

}  // namespace cae_v4
