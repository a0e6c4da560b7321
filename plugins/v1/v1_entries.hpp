// The members of v1's cae_backend_table. Each one catches everything (through
// cae_plugin::guard) and returns a status; messages name the op.
#pragma once

#include <cae/backend.h>

#include "backend_table.hpp"
#include "tensor_arguments.hpp"
#include "v1_context.hpp"

namespace v1 {
namespace entry {

// Every member of the table (backend_table.hpp). Defined in v1_backend.cpp
// (lifecycle and measurement), v1_tensors.cpp and v1_layer_entries.cpp.
CAE_DECLARE_BACKEND_MEMBERS();
CAE_DECLARE_BACKEND_GROUP_MEMBERS();  // NCCL, cuda_group_entries.hpp
CAE_DECLARE_BACKEND_HOST_MEMORY_MEMBERS();  // page-locked host memory (ABI 1.3), cuda_lifecycle_entries.hpp
CAE_DECLARE_BACKEND_PROCESS_GROUP_MEMBERS();  // NCCL across processes (ABI 1.2)

// The context behind a handle, or INVALID_ARGUMENT naming `op` when it is NULL.
inline cae_context_s& context_of(cae_context ctx, const char* op) {
  return cae_plugin::context_argument(ctx, op);
}

}  // namespace entry
}  // namespace v1
