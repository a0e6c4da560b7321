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
  // What a mutant that "records" a graph keeps from the graph's first run.
  std::vector<cae_tensor> first_bindings;
  cae_graph_run_params first_params{};
  bool ran = false;
  // What a mutant that keeps its own copies of bound tensors holds: the
  // bindings of the previous run, and per tensor the copy it made (NULL
  // where none), freed with the graph.
  std::vector<cae_tensor> last_bindings;
  std::vector<cae_tensor> own_tensors;
};

// The description `graph` was compiled from; nullptr for an unknown graph.
// Dropped with the graph.
GraphCopy* graph_copy(cae_graph graph);

// True when every non-NULL binding is a tracked tensor of the declared shape
// (a run the base backend would not refuse for its shapes).
bool declared_shapes(const GraphCopy& copy, const cae_tensor* bindings, int32_t binding_count);

// Sets table.graph_compile and graph_destroy to the recording wrappers and
// table.graph_run to `run`.
void track_graphs(cae_backend_table& table,
                  cae_status (*run)(cae_context, cae_graph, const cae_tensor*, int32_t,
                                    const cae_graph_run_params*));

}  // namespace mutant
