// Tensor allocation and the host <-> device copies. Tensors keep the boundary
// layout, so the copies are plain; an upload is a write (new version).
#include <memory>
#include <string>

#include "op_shapes.hpp"
#include "winograd_context.hpp"
#include "winograd_entry_points.hpp"

namespace cae_winograd {
namespace entry {

using cae_plugin::guard;
using cae_plugin::require;

cae_status tensor_alloc(cae_context ctx, int32_t ndim, const int64_t* dims, cae_tensor* out) {
  return guard(ctx, [&] {
    Context& c = context_arg(ctx, "tensor_alloc");
    require(out != nullptr, "tensor_alloc: out is NULL");
    *out = nullptr;
    auto t = std::make_unique<cae_tensor_s>();
    t->shape = cae_plugin::make_shape(ndim, dims);
    const size_t count = static_cast<size_t>(t->shape.count());
    c.activate();
    t->data = cae_plugin::cuda::device_alloc_floats(count, c.memory,
                                                    ("tensor " + t->shape.str()).c_str());
    t->bytes = count * sizeof(float);
    t->id = c.next_tensor_id++;
    try {
      c.tensors.insert(t.get());
    } catch (...) {
      cae_plugin::cuda::device_free(t->data, t->bytes, c.memory);
      throw;
    }
    *out = t.release();
  });
}

void tensor_free(cae_context ctx, cae_tensor t) {
  if (ctx == nullptr || t == nullptr) return;
  // A tensor of another context (or freed twice) is ignored: nothing to report through.
  auto found = ctx->tensors.find(t);
  if (found == ctx->tensors.end()) return;
  ctx->tensors.erase(found);
  cudaSetDevice(ctx->device);
  ctx->filters.forget(*t);
  ctx->flipped_filters.forget(*t);
  // cudaFree waits for the kernels that may still use the memory.
  cae_plugin::cuda::device_free(t->data, t->bytes, ctx->memory);
  delete t;
}

cae_status tensor_upload(cae_context ctx, cae_tensor t, const float* src, size_t count) {
  return guard(ctx, [&] {
    Context& c = context_arg(ctx, "tensor_upload");
    cae_tensor_s& tensor = tensor_arg(c, t, "tensor_upload", "t");
    require(src != nullptr, "tensor_upload: src is NULL");
    cae_plugin::check_transfer_count("tensor_upload", tensor.shape, count);
    c.activate();
    mark_written(c, &tensor);
    // Pageable source: the copy has been staged when the call returns, so the
    // caller may reuse src at once (the ABI's promise).
    CAE_CUDA_CHECK(
        cudaMemcpyAsync(tensor.data, src, count * sizeof(float), cudaMemcpyHostToDevice, c.stream));
    CAE_CUDA_CHECK(cudaStreamSynchronize(c.stream));
  });
}

cae_status tensor_download(cae_context ctx, cae_tensor t, float* dst, size_t count) {
  return guard(ctx, [&] {
    Context& c = context_arg(ctx, "tensor_download");
    cae_tensor_s& tensor = tensor_arg(c, t, "tensor_download", "t");
    require(dst != nullptr, "tensor_download: dst is NULL");
    cae_plugin::check_transfer_count("tensor_download", tensor.shape, count);
    c.activate();
    CAE_CUDA_CHECK(
        cudaMemcpyAsync(dst, tensor.data, count * sizeof(float), cudaMemcpyDeviceToHost, c.stream));
    // Also reports errors of earlier asynchronous work on the stream.
    CAE_CUDA_CHECK(cudaStreamSynchronize(c.stream));
  });
}

}  // namespace entry
}  // namespace cae_winograd
