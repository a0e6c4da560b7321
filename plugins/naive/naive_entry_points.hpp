// The C entry points of the naive backend, as gathered into its table by
// naive_backend.cpp. Each one catches everything (cae_plugin::guard), checks
// its handles and shapes, and hands the work to the ops in naive_ops.hpp.
#pragma once

#include <cae/backend.h>

#include "cuda_entry_declarations.hpp"
#include "naive_context.hpp"

namespace naive {

// The context behind a handle passed to `op`, made current on this thread
// (a context may live on another device than the last one used here).
cae_context_s& use_context(cae_context ctx, const char* op);

// The members of the table (cuda_entry_declarations.hpp). Defined in
// naive_backend.cpp (lifecycle, device_info, synchronize, timer,
// memory_stats), naive_tensor_entry_points.cpp and naive_op_entry_points.cpp.
namespace entry {

CAE_DECLARE_CUDA_BACKEND_MEMBERS();

}  // namespace entry
}  // namespace naive
