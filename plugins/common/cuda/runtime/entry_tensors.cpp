// Tensor allocation and the host <-> device copies, which convert between the
// boundary order (NCHW) and the runtime's storage order (NHWC) of 4-D tensors.
#include <memory>
#include <string>

#include "op_shapes.hpp"

#include "runtime_entry.hpp"
#include "runtime_ops.hpp"

namespace cae_cuda {
namespace entry {

using cae_plugin::guard;
using cae_plugin::require;

cae_status tensor_alloc(cae_context ctx, int32_t ndim, const int64_t* dims, cae_tensor* out) {
  return guard(ctx, [&] {
    Context& c = enter_keeping_deferred(ctx, "tensor_alloc");
    require(out != nullptr, "tensor_alloc: out is NULL");
    *out = nullptr;
    auto t = std::make_unique<cae_tensor_s>();
    t->shape = cae_plugin::make_shape(ndim, dims);
    const size_t count = static_cast<size_t>(t->shape.count());
    t->data = cae_plugin::cuda::device_alloc_floats(count, c.memory,
                                                    ("tensor " + t->shape.str()).c_str());
    t->bytes = count * sizeof(float);
    c.wrote(*t);
    try {
      c.tensors.insert(t.get());
    } catch (...) {
      release_tensor_memory(c, *t);
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
  // Deferred work may use it: issue it first (a failure is kept for last_error).
  (void)guard(ctx, [&] { enter(ctx, "tensor_free"); });
  ctx->tensors.erase(found);
  cudaSetDevice(ctx->device);
  release_tensor_memory(*ctx, *t);  // cudaFree waits for kernels still using it
  delete t;
}

cae_status tensor_upload(cae_context ctx, cae_tensor t, const float* src, size_t count) {
  return guard(ctx, [&] {
    const char* op = "tensor_upload";
    Context& c = enter(ctx, op);
    cae_tensor_s& tensor = tensor_arg(c, t, op, "t");
    require(src != nullptr, "tensor_upload: src is NULL");
    cae_plugin::check_transfer_count(op, tensor.shape, count);
    const bool page_locked = c.host_memory.holds(src, count * sizeof(float));
    auto upload_to = [&](float* device_dst) {
      c.staging.upload(c.stream, device_dst, src, count, page_locked);
    };
    if (stored_channels_last(tensor.shape)) {
      float* boundary = c.scratch.get(count);
      upload_to(boundary);
      boundary_to_stored(c, tensor.shape, boundary, tensor.data);
    } else {
      upload_to(tensor.data);
    }
    c.wrote(tensor);
  });
}

cae_status tensor_download(cae_context ctx, cae_tensor t, float* dst, size_t count) {
  return guard(ctx, [&] {
    const char* op = "tensor_download";
    Context& c = enter(ctx, op);
    const cae_tensor_s& tensor = tensor_arg(c, t, op, "t");
    require(dst != nullptr, "tensor_download: dst is NULL");
    cae_plugin::check_transfer_count(op, tensor.shape, count);
    const float* boundary = tensor.data;
    if (stored_channels_last(tensor.shape)) {
      float* staged = c.scratch.get(count);
      stored_to_boundary(c, tensor.shape, tensor.data, staged);
      boundary = staged;
    }
    if (c.host_memory.holds(dst, count * sizeof(float))) {
      cae_plugin::cuda::download_to_pinned(c.stream, dst, boundary, count);
    } else {
      c.staging.download(c.stream, dst, boundary, count);
    }
  });
}

cae_status transpose(cae_context ctx, cae_tensor x, cae_tensor y) {
  return guard(ctx, [&] {
    const char* op = "transpose";
    Context& c = enter(ctx, op);
    const cae_tensor_s& tx = tensor_arg(c, x, op, "x");
    cae_tensor_s& ty = tensor_arg(c, y, op, "y");
    const cae_plugin::TransposeDims dims = cae_plugin::check_transpose(tx.shape, ty.shape, x == y);
    // Rank-2 tensors are stored as they are (row-major): one matrix of the
    // layout conversions' tiled transpose.
    transpose_batched(c, tx.data, ty.data, 1, dims.rows, dims.cols);
    c.wrote(ty);
  });
}

cae_status add_normal_noise(cae_context ctx, cae_tensor x, cae_tensor y, float sigma, uint64_t seed,
                            uint64_t first_index) {
  return guard(ctx, [&] {
    const char* op = "add_normal_noise";
    Context& c = enter(ctx, op);
    const cae_tensor_s& tx = tensor_arg(c, x, op, "x");
    cae_tensor_s& ty = tensor_arg(c, y, op, "y");
    cae_plugin::check_add_normal_noise(tx.shape, ty.shape, sigma);
    // Same shape, so the same storage order: y's stored value s is x's.
    cae_cuda::add_normal_noise(c, tx.shape, tx.data, ty.data, sigma, seed, first_index);
    c.wrote(ty);
  });
}

cae_status channel_code(cae_context ctx, cae_tensor x, cae_tensor y, int32_t code, float bias,
                        int32_t relu) {
  return guard(ctx, [&] {
    const char* op = "channel_code";
    Context& c = enter(ctx, op);
    const cae_tensor_s& tx = tensor_arg(c, x, op, "x");
    cae_tensor_s& ty = tensor_arg(c, y, op, "y");
    const cae_plugin::ChannelCodeDims dims =
        cae_plugin::check_channel_code(tx.shape, ty.shape, x == y, code, bias);
    cae_cuda::channel_code(c, dims, tx.data, ty.data, code, bias, relu != 0);
    c.wrote(ty);
  });
}

}  // namespace entry
}  // namespace cae_cuda
