// graph-large-images: a graph whose fused kernel drops its last row tile, a
// bug that only shows once an image is taller than one tile: every image
// output of 16 rows or more comes back with its last row zeroed. The small
// networks of check `graphs` (4x4 and 8x8 images) never reach it; check
// `graph_real_shapes` (the seed network at 32x32) must.
#include <vector>

#include "graph_copies.hpp"
#include "mutant_core.hpp"

namespace mutant {
namespace {

constexpr int64_t kTileRows = 16;

cae_status graph_run(cae_context ctx, cae_graph graph, const cae_tensor* bindings,
                     int32_t binding_count, const cae_graph_run_params* params) {
  const cae_status status = base().graph_run(ctx, graph, bindings, binding_count, params);
  const GraphCopy* copy = graph_copy(graph);
  if (status != CAE_STATUS_OK || copy == nullptr || bindings == nullptr) return status;
  return run([&] {
    for (size_t i = 0; i < copy->tensors.size() && i < size_t(binding_count); ++i) {
      const cae_graph_tensor& t = copy->tensors[i];
      if (t.role != CAE_GRAPH_OUTPUT || t.ndim != 4 || t.dims[2] < kTileRows) continue;
      if (!tracked({bindings[i]})) continue;
      std::vector<float> values = download(ctx, bindings[i]);
      const int64_t rows = t.dims[2], columns = t.dims[3];
      for (int64_t plane = 0; plane < t.dims[0] * t.dims[1]; ++plane) {
        for (int64_t x = 0; x < columns; ++x)
          values[size_t((plane * rows + rows - 1) * columns + x)] = 0.0f;
      }
      upload(ctx, bindings[i], values);
    }
  });
}

}  // namespace

void mutate(cae_backend_table& table) { track_graphs(table, graph_run); }

}  // namespace mutant
