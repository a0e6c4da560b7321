// The members of winograd's cae_backend_table. Each one validates its
// arguments (plugins/common/op_shapes.hpp), marks its outputs written (the
// filter cache's versions), converts every exception into a status through
// cae_plugin::guard, and hands the work to the device side
// (cuda_device_ops.hpp, winograd_ops.hpp).
#pragma once

#include "backend_table.hpp"
#include "cuda_entry_declarations.hpp"

namespace cae_winograd {
namespace entry {

// Defined in winograd_lifecycle.cpp and winograd_backend.cpp (the tensors and
// ops, by the shared cuda_op_entries.hpp; graphs).
CAE_DECLARE_CUDA_BACKEND_MEMBERS();
CAE_DECLARE_BACKEND_OPTIONS_MEMBERS();  // declared options (ABI 1.4), winograd_tuning_table.hpp

}  // namespace entry
}  // namespace cae_winograd
