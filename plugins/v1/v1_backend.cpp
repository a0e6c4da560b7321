// v1's function table, its one exported symbol, and the lifecycle members:
// the shared CUDA lifecycle (cuda_lifecycle_entries.hpp) except for create,
// which requires struct_size to cover device_index and keeps its own messages.
#include <cstddef>

#include "cuda_group_entries.hpp"
#include "cuda_lifecycle_entries.hpp"
#include "graph_interpreter.hpp"
#include "v1_entries.hpp"
#include "v1_ops.hpp"

namespace v1 {
namespace entry {

using cae_plugin::guard;
using cae_plugin::require;

namespace {
// The host picks the highest available priority by default: v1 ranks above
// naive (and cpu) but below v2 (cuBLAS).
constexpr int32_t kProbePriority = 30;

// Hand-written fp32 kernels whose reductions have a fixed order: deterministic.
using Lifecycle =
    cae_plugin::cuda::LifecycleEntries<cae_context_s, kProbePriority, CAE_PRECISION_FP32,
                                       /*kDeterministic=*/true, context_of>;
}  // namespace

// destroy: the destructor frees every live tensor and scratch buffer; it does not throw.
CAE_DEFINE_CUDA_LIFECYCLE_MEMBERS(Lifecycle);
CAE_DEFINE_CUDA_LIFECYCLE_MEMORY_STATS(Lifecycle);
// The ABI 1.1 collectives: NCCL over the members' devices.
using Group = cae_plugin::cuda::GroupEntries<cae_context_s, context_of>;
CAE_DEFINE_CUDA_GROUP_MEMBERS(Group);

cae_status create(const cae_create_options* options, cae_context* out) {
  return guard(nullptr, [&] {
    require(out != nullptr, "create: output pointer is NULL");
    *out = nullptr;
    require(options != nullptr, "create: options is NULL");
    require(options->struct_size >=
                offsetof(cae_create_options, device_index) + sizeof(options->device_index),
            "create: options->struct_size is too small");
    *out = new cae_context_s(options);
  });
}

// Graphs (ABI 1.5) run node by node through this backend's own op members
// (plugins/common/graph_interpreter.hpp): the results of the op sequence.
// v1's convolutions are 3x3 only: a graph with another is refused at
// compile, and the host runs it op by op (where the op says so itself).
void check_graph_node(const cae_plugin::GraphDescription& graph, const cae_graph_node& node) {
  if (node.op == CAE_GRAPH_CONV2D_FORWARD || node.op == CAE_GRAPH_CONV2D_BACKWARD) {
    require_supported_conv(cae_plugin::graph_op_name(node.op), cae_plugin::graph_conv_dims(graph, node));
  }
}
CAE_DEFINE_GRAPH_INTERPRETER_MEMBERS_CHECKING(&check_graph_node);

}  // namespace entry
}  // namespace v1

CAE_DEFINE_BACKEND_ENTRY_WITH(
    v1::entry, "v1", "1.0.0",
    "CUDA, hand-written tiled kernels (shared-memory 3x3 conv, fused bias+ReLU, "
    "deterministic warp-shuffle reductions), fp32",
    CAE_GROUP_MEMBER_SET CAE_PROCESS_GROUP_MEMBER_SET CAE_HOST_MEMORY_MEMBER_SET CAE_GRAPH_MEMBER_SET);
