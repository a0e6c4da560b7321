// Tensor members of the table. v1 keeps the boundary layout on the device, so
// upload and download are straight copies on the context's stream.
#include <string>

#include "op_shapes.hpp"

#include "v1_entries.hpp"

namespace v1 {
namespace entry {

using cae_plugin::guard;
using cae_plugin::require;

cae_status tensor_alloc(cae_context ctx, int32_t ndim, const int64_t* dims, cae_tensor* out) {
  return guard(ctx, [&] {
    cae_context_s& c = context_of(ctx, "tensor_alloc");
    require(out != nullptr, "tensor_alloc: output pointer is NULL");
    *out = nullptr;
    *out = c.allocate_tensor(cae_plugin::make_shape(ndim, dims));
  });
}

void tensor_free(cae_context ctx, cae_tensor t) {
  if (ctx && t) ctx->free_tensor(t);
}

cae_status tensor_upload(cae_context ctx, cae_tensor t, const float* src, size_t count) {
  return guard(ctx, [&] {
    cae_context_s& c = context_of(ctx, "tensor_upload");
    cae_tensor_s& dst = c.tensor(t, "tensor_upload", "t");
    require(src != nullptr, "tensor_upload: src is NULL");
    cae_plugin::check_transfer_count("tensor_upload", dst.shape, count);
    c.activate();
    // On the context's stream (which does not synchronise with the legacy
    // default stream), then waited for: src may be reused once we return.
    CAE_CUDA_CHECK(
        cudaMemcpyAsync(dst.data, src, count * sizeof(float), cudaMemcpyHostToDevice, c.stream));
    CAE_CUDA_CHECK(cudaStreamSynchronize(c.stream));
  });
}

cae_status tensor_download(cae_context ctx, cae_tensor t, float* dst, size_t count) {
  return guard(ctx, [&] {
    cae_context_s& c = context_of(ctx, "tensor_download");
    cae_tensor_s& src = c.tensor(t, "tensor_download", "t");
    require(dst != nullptr, "tensor_download: dst is NULL");
    cae_plugin::check_transfer_count("tensor_download", src.shape, count);
    c.activate();
    CAE_CUDA_CHECK(
        cudaMemcpyAsync(dst, src.data, count * sizeof(float), cudaMemcpyDeviceToHost, c.stream));
    CAE_CUDA_CHECK(cudaStreamSynchronize(c.stream));
  });
}

}  // namespace entry
}  // namespace v1
