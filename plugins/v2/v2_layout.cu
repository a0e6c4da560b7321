// NCHW (boundary) <-> CNHW (stored) conversion of 4-D tensors.
#include "v2_launch.cuh"
#include "v2_layout_kernels.cuh"
#include "v2_ops.hpp"

namespace cae_v2 {

void boundary_to_stored(Context& ctx, const cae_plugin::Shape& shape, const float* boundary,
                        float* stored) {
  // [N][C][HW] -> [C][N][HW]
  launch_for_each(SwapLeadingDims{boundary, stored, shape[0], shape[1], shape[2] * shape[3]},
                  ctx.stream, "NCHW to CNHW");
}

void stored_to_boundary(Context& ctx, const cae_plugin::Shape& shape, const float* stored,
                        float* boundary) {
  // [C][N][HW] -> [N][C][HW]
  launch_for_each(SwapLeadingDims{stored, boundary, shape[1], shape[0], shape[2] * shape[3]},
                  ctx.stream, "CNHW to NCHW");
}

}  // namespace cae_v2
