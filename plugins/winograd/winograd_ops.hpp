// winograd's device side. The ops the shared entry points call are declared in
// cuda_device_ops.hpp and defined in winograd's .cu files (the write versions
// and the plain copies in winograd_device_ops.cpp); below are winograd's own.
// Pointers are device memory in the boundary layout (NCHW / OIHW /
// row-major); everything is queued on ctx.stream and checked (launch errors
// and cuBLAS statuses become Errors).
#pragma once

#include "cuda_device_ops.hpp"
#include "op_shapes.hpp"
#include "winograd_context.hpp"

namespace cae_winograd {

// Winograd F(4x4,3x3); K != 3 is CAE_STATUS_UNSUPPORTED.
// Throws UNSUPPORTED unless the convolution is 3x3, the only kernel the
// backend computes (the convolutions call it; so does graph_compile).
void require_3x3(const cae_plugin::ConvDims& d, const char* op);

}  // namespace cae_winograd
