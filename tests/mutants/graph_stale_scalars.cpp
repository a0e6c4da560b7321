// graph-stale-scalars: a captured graph replayed with the learning rate and
// Adam step of the run it was recorded in. Like a backend that records the
// update kernels with their scalar arguments and replays them as they are:
// every later run updates the parameters as the first one did (no schedule,
// no new bias correction), and reports success.
#include "graph_copies.hpp"
#include "mutant_core.hpp"

namespace mutant {
namespace {

cae_status graph_run(cae_context ctx, cae_graph graph, const cae_tensor* bindings,
                     int32_t binding_count, const cae_graph_run_params* params) {
  GraphCopy* copy = graph_copy(graph);
  if (copy != nullptr && params != nullptr && params->struct_size >= sizeof(cae_graph_run_params)) {
    if (!copy->ran) {
      copy->first_params = *params;
      copy->ran = true;
    } else {
      params = &copy->first_params;  // the recorded arguments
    }
  }
  return base().graph_run(ctx, graph, bindings, binding_count, params);
}

}  // namespace

void mutate(cae_backend_table& table) { track_graphs(table, graph_run); }

}  // namespace mutant
