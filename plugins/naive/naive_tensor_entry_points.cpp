// Entry points that create, fill, read and free tensors.
#include <string>

#include "op_shapes.hpp"

#include "naive_entry_points.hpp"
#include "naive_layout.hpp"

namespace naive {
namespace entry {

using cae_plugin::guard;
using cae_plugin::require;

cae_status tensor_alloc(cae_context ctx, int32_t ndim, const int64_t* dims, cae_tensor* out) {
  return guard(ctx, [&] {
    cae_context_s& context = use_context(ctx, "tensor_alloc");
    require(out != nullptr, "tensor_alloc: out is NULL");
    *out = nullptr;
    *out = context.allocate_tensor(cae_plugin::make_shape(ndim, dims));
  });
}

void tensor_free(cae_context ctx, cae_tensor t) {
  if (ctx == nullptr || t == nullptr) return;
  // No status to return: a foreign handle only leaves a message in last_error.
  (void)guard(ctx, [&] {
    cae_context_s& context = use_context(ctx, "tensor_free");
    context.free_tensor(&context.tensor(t, "tensor_free", "t"));
  });
}

cae_status tensor_upload(cae_context ctx, cae_tensor t, const float* src, size_t count) {
  return guard(ctx, [&] {
    const char* op = "tensor_upload";
    cae_context_s& context = use_context(ctx, op);
    cae_tensor_s& tensor = context.tensor(t, op, "t");
    require(src != nullptr, "tensor_upload: src is NULL");
    cae_plugin::check_transfer_count(op, tensor.shape, count);
    upload_tensor(context, tensor, src);
  });
}

cae_status tensor_download(cae_context ctx, cae_tensor t, float* dst, size_t count) {
  return guard(ctx, [&] {
    const char* op = "tensor_download";
    cae_context_s& context = use_context(ctx, op);
    const cae_tensor_s& tensor = context.tensor(t, op, "t");
    require(dst != nullptr, "tensor_download: dst is NULL");
    cae_plugin::check_transfer_count(op, tensor.shape, count);
    download_tensor(context, tensor, dst);
  });
}

}  // namespace entry
}  // namespace naive
