// graph-stale-bindings: a captured graph replayed on the tensors of the run
// it was recorded in. Like a backend that records a graph's first run with
// the device addresses it was given and replays that recording whatever it
// is bound to later: a run on other tensors of the same shapes computes on
// the first run's tensors again (their parameters are updated twice, the
// new outputs are never written) and reports success.
#include <vector>

#include "graph_copies.hpp"
#include "mutant_core.hpp"

namespace mutant {
namespace {

cae_status graph_run(cae_context ctx, cae_graph graph, const cae_tensor* bindings,
                     int32_t binding_count, const cae_graph_run_params* params) {
  GraphCopy* copy = graph_copy(graph);
  if (copy != nullptr && declared_shapes(*copy, bindings, binding_count)) {
    if (copy->first_bindings.empty()) {
      copy->first_bindings.assign(bindings, bindings + binding_count);
    } else {
      // The replay, on the recorded tensors (all still alive in the caller).
      bindings = copy->first_bindings.data();
    }
  }
  return base().graph_run(ctx, graph, bindings, binding_count, params);
}

}  // namespace

void mutate(cae_backend_table& table) { track_graphs(table, graph_run); }

}  // namespace mutant
