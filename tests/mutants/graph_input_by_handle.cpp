// graph-input-by-handle: a graph that keeps its own copy of its inputs and
// refreshes a copy only when the host binds another tensor there. Like a
// backend that converts each batch into its own layout (NHWC, half
// precision) and skips the conversion when the handle is the one it
// converted last time: the host uploads every batch into the same tensor,
// so every step after the first trains on the first batch again, and
// reports success.
#include <vector>

#include "graph_copies.hpp"
#include "mutant_core.hpp"

namespace mutant {
namespace {

cae_status graph_run(cae_context ctx, cae_graph graph, const cae_tensor* bindings,
                     int32_t binding_count, const cae_graph_run_params* params) {
  GraphCopy* copy = graph_copy(graph);
  if (copy == nullptr || !declared_shapes(*copy, bindings, binding_count)) {
    return base().graph_run(ctx, graph, bindings, binding_count, params);
  }
  return run([&] {
    const size_t count = copy->tensors.size();
    copy->own_tensors.resize(count, nullptr);
    copy->last_bindings.resize(count, nullptr);
    std::vector<cae_tensor> rebound(bindings, bindings + binding_count);
    for (size_t i = 0; i < count; ++i) {
      const cae_graph_tensor& t = copy->tensors[i];
      if (t.role != CAE_GRAPH_INPUT || bindings[i] == nullptr) continue;
      if (copy->own_tensors[i] == nullptr) {
        check(base().tensor_alloc(ctx, t.ndim, t.dims, &copy->own_tensors[i]));
      }
      if (bindings[i] != copy->last_bindings[i]) {  // the bug: a handle is not its contents
        upload(ctx, copy->own_tensors[i], download(ctx, bindings[i]));
        copy->last_bindings[i] = bindings[i];
      }
      rebound[i] = copy->own_tensors[i];
    }
    check(base().graph_run(ctx, graph, rebound.data(), binding_count, params));
  });
}

}  // namespace

void mutate(cae_backend_table& table) { track_graphs(table, graph_run); }

}  // namespace mutant
