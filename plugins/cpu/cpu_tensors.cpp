// Tensors: allocation with memory accounting, and copies across the boundary.
// Inside, a tensor is kept in the boundary layout, so copies are plain memcpy.
#include <cstring>
#include <memory>
#include <string>

#include "cpu_context.hpp"
#include "op_shapes.hpp"
#include "cpu_ops.hpp"

namespace cae_cpu {

using cae_plugin::guard;
using cae_plugin::require;

cae_status tensor_alloc(cae_context ctx, int32_t ndim, const int64_t* dims, cae_tensor* out) {
  return guard(ctx, [&] {
    cae_context_s& c = context_arg(ctx, "tensor_alloc");
    require(out != nullptr, "tensor_alloc: output tensor pointer is NULL");
    *out = nullptr;
    auto tensor = std::make_unique<cae_tensor_s>();
    tensor->shape = cae_plugin::make_shape(ndim, dims);
    tensor->storage.reserve(static_cast<size_t>(tensor->count()), "tensor_alloc",
                            "a " + tensor->shape.str() + " tensor");
    cae_tensor_s* handle = tensor.get();
    c.tensors.emplace(handle, std::move(tensor));
    c.bytes_in_use += handle->bytes();
    if (c.bytes_in_use > c.peak_bytes) c.peak_bytes = c.bytes_in_use;
    *out = handle;
  });
}

void tensor_free(cae_context ctx, cae_tensor t) {
  if (!ctx || !t) return;
  auto it = ctx->tensors.find(t);
  if (it == ctx->tensors.end()) return;  // not ours (or freed twice): nothing we may touch
  ctx->bytes_in_use -= t->bytes();
  ctx->tensors.erase(it);
}

namespace {

void require_whole_tensor(const char* op, const cae_tensor_s& t, const void* host, size_t count) {
  require(host != nullptr, std::string(op) + ": host pointer is NULL");
  cae_plugin::check_transfer_count(op, t.shape, count);
}

}  // namespace

cae_status tensor_upload(cae_context ctx, cae_tensor t, const float* src, size_t count) {
  return guard(ctx, [&] {
    const char* op = "tensor_upload";
    cae_tensor_s& tensor = tensor_arg(context_arg(ctx, op), t, op, "tensor");
    require_whole_tensor(op, tensor, src, count);
    std::memcpy(tensor.data(), src, count * sizeof(float));
  });
}

cae_status tensor_download(cae_context ctx, cae_tensor t, float* dst, size_t count) {
  return guard(ctx, [&] {
    const char* op = "tensor_download";
    cae_tensor_s& tensor = tensor_arg(context_arg(ctx, op), t, op, "tensor");
    require_whole_tensor(op, tensor, dst, count);
    std::memcpy(dst, tensor.data(), count * sizeof(float));
  });
}

}  // namespace cae_cpu
