// What the shared entry points (cuda_op_entries.hpp) ask of winograd beyond
// its kernels: tensors keep the boundary layout, so uploads and downloads are
// plain copies; every write gives a tensor a new version, which keys the
// filter-transform cache, and a freed tensor's transforms go with it.
#include "cuda_device_ops.hpp"
#include "winograd_context.hpp"

namespace cae_plugin {
namespace cuda {
namespace device_ops {

void tensor_allocated(Context& c, cae_tensor_s& t) { t.id = c.next_tensor_id++; }

void tensor_freeing(Context& c, cae_tensor_s& t) {
  c.filters.forget(t);
  c.flipped_filters.forget(t);
}

void writing(Context& c, cae_tensor_s* t) { cae_winograd::mark_written(c, t); }

void upload(Context& c, cae_tensor_s& tensor, const float* src, size_t count) {
  cae_winograd::mark_written(c, &tensor);
  // Pageable source: the copy has been staged when the call returns, so the
  // caller may reuse src at once (the ABI's promise).
  CAE_CUDA_CHECK(
      cudaMemcpyAsync(tensor.data, src, count * sizeof(float), cudaMemcpyHostToDevice, c.stream));
  CAE_CUDA_CHECK(cudaStreamSynchronize(c.stream));
}

const float* boundary_order(Context&, const cae_tensor_s& tensor, size_t) { return tensor.data; }

}  // namespace device_ops
}  // namespace cuda
}  // namespace cae_plugin
