// For the graph mutants: the description each live graph was compiled from,
// kept by wrappers of graph_compile and graph_destroy, so that a mutant's
// graph_run can see which tensor is what.
#pragma once

#include <cae/backend.h>

#include <vector>

namespace mutant {

struct GraphCopy {
  std::vector<cae_graph_tensor> tensors;
  std::vector<cae_graph_node> nodes;
};

// The description `graph` was compiled from; nullptr for an unknown graph.
const GraphCopy* graph_copy(cae_graph graph);

// Sets table.graph_compile and graph_destroy to the recording wrappers and
// table.graph_run to `run`.
void track_graphs(cae_backend_table& table,
                  cae_status (*run)(cae_context, cae_graph, const cae_tensor*, int32_t,
                                    const cae_graph_run_params*));

}  // namespace mutant
