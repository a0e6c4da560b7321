// The winograd backend's table and its one exported symbol.
#include "backend_table.hpp"
#include "cuda_op_entries.hpp"
#include "graph_interpreter.hpp"
#include "winograd_context.hpp"
#include "winograd_entry_points.hpp"
#include "winograd_ops.hpp"

namespace cae_winograd {
namespace entry {
// The tensor and op members: the shared entry points (cuda_op_entries.hpp)
// on winograd's device side (winograd_ops.hpp, winograd_device_ops.cpp).
CAE_DEFINE_CUDA_OP_MEMBERS(Context);
// Graphs (ABI 1.5) run node by node through this backend's own op members
// (plugins/common/graph_interpreter.hpp): the results of the op sequence.
// The convolutions are 3x3 only: a graph with another is refused at
// compile, and the host runs it op by op (where the op says so itself).
void check_graph_node(const cae_plugin::GraphDescription& graph, const cae_graph_node& node) {
  if (node.op == CAE_GRAPH_CONV2D_FORWARD || node.op == CAE_GRAPH_CONV2D_BACKWARD) {
    require_3x3(cae_plugin::graph_conv_dims(graph, node), cae_plugin::graph_op_name(node.op));
  }
}
CAE_DEFINE_GRAPH_INTERPRETER_MEMBERS_CHECKING(&check_graph_node);
}  // namespace entry
}  // namespace cae_winograd

CAE_DEFINE_BACKEND_ENTRY_WITH(
    cae_winograd::entry, "winograd", "1.0.0",
    "CUDA, FP32: 3x3 convolutions by Winograd F(4x4,3x3) with 36 batched cuBLAS SGEMMs",
    CAE_GROUP_MEMBER_SET CAE_HOST_MEMORY_MEMBER_SET CAE_OPTIONS_MEMBER_SET CAE_GRAPH_MEMBER_SET);
