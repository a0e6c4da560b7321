// The members of v2's cae_backend_table. Each one validates its arguments
// (plugins/common/op_shapes.hpp), converts every exception into a status
// through cae_plugin::guard, and hands the work to the device side
// (cuda_device_ops.hpp, v2_ops.hpp).
#pragma once

#include <cae/backend.h>

#include "backend_table.hpp"

namespace cae_v2 {
namespace entry {

// Every member of the table (backend_table.hpp). Defined in v2_lifecycle.cpp
// (lifecycle and measurement) and v2_backend.cpp (the tensors and ops, by the
// shared cuda_op_entries.hpp; graphs).
CAE_DECLARE_BACKEND_MEMBERS();
CAE_DECLARE_BACKEND_GROUP_MEMBERS();  // NCCL, cuda_group_entries.hpp
CAE_DECLARE_BACKEND_HOST_MEMORY_MEMBERS();  // page-locked host memory (ABI 1.3), cuda_lifecycle_entries.hpp
CAE_DECLARE_BACKEND_PROCESS_GROUP_MEMBERS();  // NCCL across processes (ABI 1.2)

}  // namespace entry
}  // namespace cae_v2
