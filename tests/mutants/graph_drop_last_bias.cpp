// graph-drop-last-bias: a graph whose fused convolution epilogue forgets the
// bias of the last output channel (a tile-edge bug of a fused kernel). The op
// path stays correct; only graphs are wrong: each run zeroes the last bias
// element of every convolution before the real graph runs, and afterwards
// puts back the old value plus whatever update the graph made to it.
#include <map>
#include <vector>

#include "graph_copies.hpp"
#include "mutant_core.hpp"

namespace mutant {
namespace {

cae_status graph_run(cae_context ctx, cae_graph graph, const cae_tensor* bindings,
                     int32_t binding_count, const cae_graph_run_params* params) {
  const GraphCopy* copy = graph_copy(graph);
  if (copy == nullptr || bindings == nullptr) {
    return base().graph_run(ctx, graph, bindings, binding_count, params);
  }
  cae_status status = CAE_STATUS_OK;
  const cae_status ran = run([&] {
    std::map<cae_tensor, float> kept;
    for (const cae_graph_node& node : copy->nodes) {
      if (node.op != CAE_GRAPH_CONV2D_FORWARD) continue;
      const int32_t index = node.args[2];
      if (index < 0 || index >= binding_count || !tracked({bindings[index]})) continue;
      cae_tensor bias = bindings[index];
      if (kept.count(bias)) continue;
      std::vector<float> values = download(ctx, bias);
      kept[bias] = values.back();
      values.back() = 0.0f;
      upload(ctx, bias, values);
    }
    status = base().graph_run(ctx, graph, bindings, binding_count, params);
    for (const auto& [bias, old] : kept) {
      std::vector<float> values = download(ctx, bias);
      values.back() += old;
      upload(ctx, bias, values);
    }
  });
  return ran != CAE_STATUS_OK ? ran : status;
}

}  // namespace

void mutate(cae_backend_table& table) { track_graphs(table, graph_run); }

}  // namespace mutant
