// Tensor allocation and the host <-> device copies, which convert between the
// boundary order (NCHW) and v2's stored order (CNHW) of 4-D tensors.
#include <memory>
#include <string>

#include "op_shapes.hpp"

#include "v2_context.hpp"
#include "v2_entry_points.hpp"
#include "v2_ops.hpp"

namespace cae_v2 {
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
    auto upload_to = [&](float* device_dst) {
      cae_plugin::cuda::upload_host_floats(
          c.host_memory, c.stream, device_dst, src, count,
          [&](float* dst, const float* from, size_t n) {
            c.upload_staging.copy_to_device(c.stream, dst, from, n);
          });
    };
    if (!stored_channel_major(tensor.shape)) {
      upload_to(tensor.data);
      return;
    }
    float* boundary = c.workspace.reserve(count);
    upload_to(boundary);
    boundary_to_stored(c, tensor.shape, boundary, tensor.data);
  });
}

cae_status tensor_download(cae_context ctx, cae_tensor t, float* dst, size_t count) {
  return guard(ctx, [&] {
    Context& c = context_arg(ctx, "tensor_download");
    cae_tensor_s& tensor = tensor_arg(c, t, "tensor_download", "t");
    require(dst != nullptr, "tensor_download: dst is NULL");
    cae_plugin::check_transfer_count("tensor_download", tensor.shape, count);
    c.activate();
    const float* boundary = tensor.data;
    if (stored_channel_major(tensor.shape)) {
      float* staging = c.workspace.reserve(count);
      stored_to_boundary(c, tensor.shape, tensor.data, staging);
      boundary = staging;
    }
    // One DMA, from pageable memory or from this context's page-locked blocks
    // alike (the driver reads the latter at full bus speed).
    CAE_CUDA_CHECK(
        cudaMemcpyAsync(dst, boundary, count * sizeof(float), cudaMemcpyDeviceToHost, c.stream));
    // Also reports errors of earlier asynchronous work on the stream.
    CAE_CUDA_CHECK(cudaStreamSynchronize(c.stream));
  });
}

}  // namespace entry
}  // namespace cae_v2
