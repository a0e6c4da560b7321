#include "plugin/compiled_graph.hpp"

#include <algorithm>

namespace cae {

bool has_graph_members(const cae_backend_table& table) {
  // All three or none (backend.h): a table with only some gets none used.
  return CAE_TABLE_HAS(&table, graph_compile) && CAE_TABLE_HAS(&table, graph_run) &&
         CAE_TABLE_HAS(&table, graph_destroy);
}

std::unique_ptr<CompiledGraph> CompiledGraph::compile(Context& context,
                                                      const std::vector<cae_graph_tensor>& tensors,
                                                      const std::vector<cae_graph_node>& nodes,
                                                      const GraphGroup& group) {
  const cae_backend_table& table = context.table();
  if (!has_graph_members(table)) return nullptr;
  const bool exchanges = std::any_of(nodes.begin(), nodes.end(), [](const cae_graph_node& n) {
    return n.op == CAE_GRAPH_ALL_REDUCE_SUM;
  });
  if (exchanges && table.abi_minor < 6) return nullptr;
  cae_graph_desc desc{};
  desc.struct_size = sizeof desc;
  desc.tensor_stride = sizeof(cae_graph_tensor);
  desc.node_stride = sizeof(cae_graph_node);
  desc.tensor_count = int32_t(tensors.size());
  desc.tensors = tensors.data();
  desc.node_count = int32_t(nodes.size());
  desc.nodes = nodes.data();
  desc.group = group.group;
  desc.group_member = group.member;
  desc.group_members = group.members;
  cae_graph graph = nullptr;
  const cae_status status = table.graph_compile(context.handle(), &desc, &graph);
  if (status == CAE_STATUS_UNSUPPORTED) return nullptr;
  context.check(status, "graph_compile");
  return std::unique_ptr<CompiledGraph>(new CompiledGraph(context, graph));
}

CompiledGraph::~CompiledGraph() { context_.table().graph_destroy(context_.handle(), graph_); }

void CompiledGraph::run(const std::vector<cae_tensor>& bindings,
                        const cae_graph_run_params* params) {
  context_.check(context_.table().graph_run(context_.handle(), graph_, bindings.data(),
                                            int32_t(bindings.size()), params),
                 "graph_run");
}

}  // namespace cae
