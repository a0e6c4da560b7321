// graph-batch-cut: a graph that processes only the first 128 images of its
// batch. Like a backend whose kernels launch one block per image from a
// grid sized for at most 128: in a larger batch the later images are never
// computed (their outputs keep what they held, their loss and gradients are
// left out of the step) and the run reports success. Only batches above
// 128 reach it, such as the 256 users train at.
#include <algorithm>
#include <memory>
#include <vector>

#include "graph_copies.hpp"
#include "mutant_core.hpp"
#include "graph_desc.hpp"

namespace mutant {
namespace {

constexpr int64_t kMostImages = 128;

bool same_shape(const cae_graph_tensor& a, const cae_graph_tensor& b) {
  if (a.ndim != b.ndim) return false;
  for (int32_t d = 0; d < a.ndim; ++d) {
    if (a.dims[d] != b.dims[d]) return false;
  }
  return true;
}

// A tensor of one image per batch entry: an image-shaped input, output or
// internal tensor (a weight gradient shaped like its weight is not one).
bool holds_images(const GraphCopy& copy, const cae_graph_tensor& t, int64_t batch) {
  if (t.ndim != 4 || t.dims[0] != batch || t.role == CAE_GRAPH_PARAMETER ||
      t.role == CAE_GRAPH_OPTIMIZER_STATE) {
    return false;
  }
  for (const cae_graph_tensor& other : copy.tensors) {
    if (other.role == CAE_GRAPH_PARAMETER && same_shape(other, t)) return false;
  }
  return true;
}

int64_t batch_of(const GraphCopy& copy) {
  for (const cae_graph_tensor& t : copy.tensors) {
    if (t.role == CAE_GRAPH_INPUT) return t.dims[0];
  }
  return 0;
}

// The graph's nodes on the first kMostImages images, run on copies of those
// images; what it writes goes back into the first images of the outputs.
void run_first_images(cae_context ctx, const GraphCopy& copy, int64_t batch,
                      const cae_tensor* bindings, const cae_graph_run_params* params) {
  std::vector<cae_graph_tensor> tensors = copy.tensors;
  std::vector<bool> cut(tensors.size(), false);
  for (size_t i = 0; i < tensors.size(); ++i) {
    cut[i] = holds_images(copy, tensors[i], batch);
    if (cut[i]) tensors[i].dims[0] = kMostImages;
  }
  const cae_graph_desc desc = describe_graph(tensors, copy.nodes);
  cae_graph first = nullptr;
  check(base().graph_compile(ctx, &desc, &first));
  std::vector<std::unique_ptr<Scratch>> slices(tensors.size());
  std::vector<cae_tensor> rebound(bindings, bindings + tensors.size());
  for (size_t i = 0; i < tensors.size(); ++i) {
    if (!cut[i] || bindings[i] == nullptr) continue;
    const Dims dims(tensors[i].dims, tensors[i].dims + tensors[i].ndim);
    std::vector<float> values = download(ctx, bindings[i]);
    values.resize(count_of(dims));  // the first images
    slices[i] = std::make_unique<Scratch>(ctx, dims, values);
    rebound[i] = slices[i]->get();
  }
  const cae_status status =
      base().graph_run(ctx, first, rebound.data(), int32_t(rebound.size()), params);
  base().graph_destroy(ctx, first);
  check(status);
  for (size_t i = 0; i < tensors.size(); ++i) {
    if (!slices[i] || tensors[i].role != CAE_GRAPH_OUTPUT) continue;
    const std::vector<float> written = slices[i]->download();
    std::vector<float> values = download(ctx, bindings[i]);
    std::copy(written.begin(), written.end(), values.begin());
    upload(ctx, bindings[i], values);
  }
}

cae_status graph_run(cae_context ctx, cae_graph graph, const cae_tensor* bindings,
                     int32_t binding_count, const cae_graph_run_params* params) {
  GraphCopy* copy = graph_copy(graph);
  if (copy == nullptr || !declared_shapes(*copy, bindings, binding_count) ||
      batch_of(*copy) <= kMostImages) {
    return base().graph_run(ctx, graph, bindings, binding_count, params);
  }
  return run([&] { run_first_images(ctx, *copy, batch_of(*copy), bindings, params); });
}

}  // namespace

void mutate(cae_backend_table& table) { track_graphs(table, graph_run); }

}  // namespace mutant
