// A graph compiled by a backend (ABI 1.5): the host's RAII view of
// graph_compile / graph_run / graph_destroy. A backend without the graph
// members, or one that answers UNSUPPORTED for a graph, yields no graph, and
// the caller runs the same computation op by op.
#pragma once

#include <cae/backend.h>

#include <memory>
#include <vector>

#include "plugin/context.hpp"

namespace cae {

// Whether the table carries the three ABI 1.5 graph members.
bool has_graph_members(const cae_backend_table& table);

// ABI 1.6: the group a graph's all_reduce_sum nodes exchange over, and
// this context's place in it (cae_graph_desc's group members).
struct GraphGroup {
  cae_group group = nullptr;
  int32_t member = 0;
  int32_t members = 0;
};

class CompiledGraph {
 public:
  // nullptr when the backend has no graph members or answers UNSUPPORTED;
  // throws BackendError for any other failure (a description it refuses).
  // A graph with all_reduce_sum nodes goes only to a backend of ABI 1.6 or
  // later (an older one would not know the op): nullptr for the others.
  static std::unique_ptr<CompiledGraph> compile(Context& context,
                                                const std::vector<cae_graph_tensor>& tensors,
                                                const std::vector<cae_graph_node>& nodes,
                                                const GraphGroup& group = {});
  ~CompiledGraph();
  CompiledGraph(const CompiledGraph&) = delete;
  CompiledGraph& operator=(const CompiledGraph&) = delete;

  // One handle per graph tensor (NULL for internal ones); params may be
  // nullptr for a graph without optimiser nodes.
  void run(const std::vector<cae_tensor>& bindings, const cae_graph_run_params* params = nullptr);

 private:
  CompiledGraph(Context& context, cae_graph graph) : context_(context), graph_(graph) {}
  Context& context_;
  cae_graph graph_;
};

}  // namespace cae
