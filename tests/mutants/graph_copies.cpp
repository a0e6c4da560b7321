#include "graph_copies.hpp"

#include <map>

#include "mutant_core.hpp"

namespace mutant {
namespace {

std::map<cae_graph, GraphCopy>& copies() {
  static std::map<cae_graph, GraphCopy> of;  // the suite is one thread
  return of;
}

cae_status graph_compile(cae_context ctx, const cae_graph_desc* desc, cae_graph* out) {
  const cae_status status = base().graph_compile(ctx, desc, out);
  if (status != CAE_STATUS_OK) return status;
  GraphCopy copy;
  const char* tensors = reinterpret_cast<const char*>(desc->tensors);
  const char* nodes = reinterpret_cast<const char*>(desc->nodes);
  for (int32_t i = 0; i < desc->tensor_count; ++i) {
    copy.tensors.push_back(*reinterpret_cast<const cae_graph_tensor*>(tensors + size_t(i) * desc->tensor_stride));
  }
  for (int32_t i = 0; i < desc->node_count; ++i) {
    copy.nodes.push_back(*reinterpret_cast<const cae_graph_node*>(nodes + size_t(i) * desc->node_stride));
  }
  copies()[*out] = std::move(copy);
  return CAE_STATUS_OK;
}

void graph_destroy(cae_context ctx, cae_graph graph) {
  if (GraphCopy* copy = graph_copy(graph)) {
    for (cae_tensor own : copy->own_tensors) {
      if (own != nullptr) base().tensor_free(ctx, own);
    }
  }
  copies().erase(graph);
  base().graph_destroy(ctx, graph);
}

}  // namespace

GraphCopy* graph_copy(cae_graph graph) {
  auto found = copies().find(graph);
  return found == copies().end() ? nullptr : &found->second;
}

bool declared_shapes(const GraphCopy& copy, const cae_tensor* bindings, int32_t binding_count) {
  if (bindings == nullptr || binding_count != int32_t(copy.tensors.size())) return false;
  for (int32_t i = 0; i < binding_count; ++i) {
    const cae_graph_tensor& declared = copy.tensors[size_t(i)];
    if (bindings[i] == nullptr) continue;
    if (!tracked({bindings[i]}) ||
        dims_of(bindings[i]) != Dims(declared.dims, declared.dims + declared.ndim)) {
      return false;
    }
  }
  return true;
}

void track_graphs(cae_backend_table& table,
                  cae_status (*run)(cae_context, cae_graph, const cae_tensor*, int32_t,
                                    const cae_graph_run_params*)) {
  table.graph_compile = graph_compile;
  table.graph_run = run;
  table.graph_destroy = graph_destroy;
}

}  // namespace mutant
