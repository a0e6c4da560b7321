// graph-other-batch: a captured graph replayed after the batch size changed.
// Like a backend that recorded the run once and replays it without looking
// at the tensors it is given, a run with bindings of another shape than the
// graph was compiled for does nothing and reports success: the host would
// read back stale outputs.
#include <vector>

#include "graph_copies.hpp"
#include "mutant_core.hpp"

namespace mutant {
namespace {

cae_status graph_run(cae_context ctx, cae_graph graph, const cae_tensor* bindings,
                     int32_t binding_count, const cae_graph_run_params* params) {
  const GraphCopy* copy = graph_copy(graph);
  if (copy != nullptr && bindings != nullptr && binding_count == int32_t(copy->tensors.size())) {
    for (int32_t i = 0; i < binding_count; ++i) {
      const cae_graph_tensor& declared = copy->tensors[size_t(i)];
      if (bindings[i] && tracked({bindings[i]}) &&
          dims_of(bindings[i]) != Dims(declared.dims, declared.dims + declared.ndim)) {
        return CAE_STATUS_OK;  // the replay: nothing new is computed
      }
    }
  }
  return base().graph_run(ctx, graph, bindings, binding_count, params);
}

}  // namespace

void mutate(cae_backend_table& table) { track_graphs(table, graph_run); }

}  // namespace mutant
