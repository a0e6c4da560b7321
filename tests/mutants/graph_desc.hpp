// The graph description of a list of tensors and nodes (they must outlive
// it), as a host builds one: what the mutants that compile graphs of their
// own and the mutant tests pass to graph_compile.
#pragma once

#include <cae/backend.h>

#include <vector>

inline cae_graph_desc describe_graph(const std::vector<cae_graph_tensor>& tensors,
                                     const std::vector<cae_graph_node>& nodes) {
  cae_graph_desc desc{};
  desc.struct_size = sizeof desc;
  desc.tensor_stride = sizeof(cae_graph_tensor);
  desc.node_stride = sizeof(cae_graph_node);
  desc.tensor_count = int32_t(tensors.size());
  desc.tensors = tensors.data();
  desc.node_count = int32_t(nodes.size());
  desc.nodes = nodes.data();
  return desc;
}
