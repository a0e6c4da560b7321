// The v2 backend's table and its one exported symbol.
#include "backend_table.hpp"
#include "cuda_op_entries.hpp"
#include "graph_interpreter.hpp"
#include "v2_context.hpp"
#include "v2_entry_points.hpp"

namespace cae_v2 {
namespace entry {
// The tensor and op members: the shared entry points (cuda_op_entries.hpp)
// on v2's device side (v2_ops.hpp, v2_device_ops.cpp).
CAE_DEFINE_CUDA_OP_MEMBERS(Context);
// Graphs (ABI 1.5) run node by node through this backend's own op members
// (plugins/common/graph_interpreter.hpp): the results of the op sequence.
CAE_DEFINE_GRAPH_INTERPRETER_MEMBERS();
}  // namespace entry
}  // namespace cae_v2

CAE_DEFINE_BACKEND_ENTRY_WITH(
    cae_v2::entry, "v2", "1.0.0",
    "CUDA, FP32: convolutions as single batch-wide cuBLAS SGEMMs on channel-major activations",
    CAE_GROUP_MEMBER_SET CAE_PROCESS_GROUP_MEMBER_SET CAE_HOST_MEMORY_MEMBER_SET CAE_GRAPH_MEMBER_SET);
