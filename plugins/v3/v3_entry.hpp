// The members of v3's cae_backend_table, and what they share: argument
// access (NULL handles, tensors of another context) and the point where
// deferred work is issued (see v3_deferred.hpp).
#pragma once

#include <cae/backend.h>

#include "backend_table.hpp"
#include "v3_context.hpp"

namespace cae_v3 {

// Validates ctx, makes its device current and issues any deferred work.
Context& enter(cae_context ctx, const char* op);
// The same, but leaves deferred work queued: for the calls that may merge with it.
Context& enter_keeping_deferred(cae_context ctx, const char* op);
void flush_deferred(Context& ctx);

cae_tensor_s& tensor_arg(const Context& ctx, cae_tensor t, const char* op, const char* name);
// As tensor_arg, but NULL is allowed (returns nullptr).
cae_tensor_s* optional_tensor_arg(const Context& ctx, cae_tensor t, const char* op,
                                  const char* name);

namespace entry {

// Every member of the table (backend_table.hpp). Defined in
// v3_entry_lifecycle.cpp (lifecycle and measurement), v3_entry_tensors.cpp,
// v3_entry_layers.cpp and v3_entry_training.cpp (loss, optimisers, kernel matrix).
CAE_DECLARE_BACKEND_MEMBERS();
CAE_DECLARE_BACKEND_GROUP_MEMBERS();  // NCCL, cuda_group_entries.hpp
CAE_DECLARE_BACKEND_HOST_MEMORY_MEMBERS();  // page-locked host memory (ABI 1.3), cuda_lifecycle_entries.hpp
CAE_DECLARE_BACKEND_PROCESS_GROUP_MEMBERS();  // NCCL across processes (ABI 1.2)
CAE_DECLARE_BACKEND_OPTIONS_MEMBERS();  // declared options (ABI 1.4), v3_options.hpp

}  // namespace entry
}  // namespace cae_v3
