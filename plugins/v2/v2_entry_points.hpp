// The members of v2's cae_backend_table. Each one validates its arguments
// (plugins/common/op_shapes.hpp), converts every exception into a status
// through cae_plugin::guard, and hands the work to the device side (v2_ops.hpp).
#pragma once

#include <cae/backend.h>

#include "backend_table.hpp"

namespace cae_v2 {
namespace entry {

// Every member of the table (backend_table.hpp). Defined in v2_lifecycle.cpp
// (lifecycle and measurement), v2_tensor_entry.cpp, v2_layer_entry.cpp and
// v2_training_entry.cpp (loss, optimisers, kernel matrix).
CAE_DECLARE_BACKEND_MEMBERS();
CAE_DECLARE_BACKEND_GROUP_MEMBERS();  // NCCL, cuda_group_entries.hpp
CAE_DECLARE_BACKEND_HOST_MEMORY_MEMBERS();  // page-locked host memory (ABI 1.3), cuda_lifecycle_entries.hpp
CAE_DECLARE_BACKEND_PROCESS_GROUP_MEMBERS();  // NCCL across processes (ABI 1.2)

}  // namespace entry
}  // namespace cae_v2
