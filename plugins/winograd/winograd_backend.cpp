// The winograd backend's table and its one exported symbol.
#include "backend_table.hpp"
#include "graph_interpreter.hpp"
#include "winograd_context.hpp"
#include "winograd_entry_points.hpp"

namespace cae_winograd {
namespace entry {
// Graphs (ABI 1.5) run node by node through this backend's own op members
// (plugins/common/graph_interpreter.hpp): the results of the op sequence.
CAE_DEFINE_GRAPH_INTERPRETER_MEMBERS();
}  // namespace entry
}  // namespace cae_winograd

CAE_DEFINE_BACKEND_ENTRY_WITH(
    cae_winograd::entry, "winograd", "1.0.0",
    "CUDA, FP32: 3x3 convolutions by Winograd F(4x4,3x3) with 36 batched cuBLAS SGEMMs",
    CAE_GROUP_MEMBER_SET CAE_HOST_MEMORY_MEMBER_SET CAE_OPTIONS_MEMBER_SET CAE_GRAPH_MEMBER_SET);
