// The members of v1's cae_backend_table. Each one catches everything (through
// cae_plugin::guard) and returns a status; messages name the op.
#pragma once

#include <cae/backend.h>

#include "cuda_entry_declarations.hpp"
#include "tensor_arguments.hpp"
#include "v1_context.hpp"

namespace v1 {
namespace entry {

// The members of the table (cuda_entry_declarations.hpp). Defined in v1_backend.cpp
// (lifecycle and measurement), v1_tensors.cpp and v1_layer_entries.cpp.
CAE_DECLARE_CUDA_BACKEND_MEMBERS();

// The context behind a handle, or INVALID_ARGUMENT naming `op` when it is NULL.
inline cae_context_s& context_of(cae_context ctx, const char* op) {
  return cae_plugin::context_argument(ctx, op);
}

}  // namespace entry
}  // namespace v1
