// The members of v2's cae_backend_table. Each one validates its arguments
// (plugins/common/op_shapes.hpp), converts every exception into a status
// through cae_plugin::guard, and hands the work to the device side
// (cuda_device_ops.hpp, v2_ops.hpp).
#pragma once

#include "cuda_entry_declarations.hpp"

namespace cae_v2 {
namespace entry {

// Defined in v2_lifecycle.cpp (lifecycle, measurement, collectives, host
// memory) and v2_backend.cpp (the tensors and ops, by the shared
// cuda_op_entries.hpp; graphs).
CAE_DECLARE_CUDA_BACKEND_MEMBERS();

}  // namespace entry
}  // namespace cae_v2
