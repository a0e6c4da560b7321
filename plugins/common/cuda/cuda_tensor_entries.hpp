// The tensor members of the cae_backend_table (tensor_alloc, tensor_free,
// tensor_upload, tensor_download) of a CUDA backend on the shared op entries
// (cuda_op_entries.hpp): its context keeps its live tensors in a set
// `tensors`, a tensor holds `shape`, `data` and `bytes`, and the backend's own
// part (stored order, caches) is in the functions of cuda_device_ops.hpp.
//
// Plugins only.
#pragma once

#include <cae/backend.h>

#include <memory>
#include <string>

#include "cuda_device_ops.hpp"
#include "cuda_support.hpp"
#include "op_shapes.hpp"
#include "tensor_arguments.hpp"

namespace cae_plugin {
namespace cuda {

// Tensor is named here, not written out, so that the bodies are checked only
// when instantiated, where the backend's types are complete.
template <typename Context, typename Tensor = cae_tensor_s>
struct TensorEntries {
  static cae_status tensor_alloc(cae_context ctx, int32_t ndim, const int64_t* dims,
                                 cae_tensor* out) {
    return guard(ctx, [&] {
      Context& c = context_argument(ctx, "tensor_alloc");
      require(out != nullptr, "tensor_alloc: out is NULL");
      *out = nullptr;
      auto t = std::make_unique<Tensor>();
      t->shape = make_shape(ndim, dims);
      const size_t count = static_cast<size_t>(t->shape.count());
      c.activate();
      t->data = device_alloc_floats(count, c.memory, ("tensor " + t->shape.str()).c_str());
      t->bytes = count * sizeof(float);
      device_ops::tensor_allocated(c, *t);
      try {
        c.tensors.insert(t.get());
      } catch (...) {
        device_free(t->data, t->bytes, c.memory);
        throw;
      }
      *out = t.release();
    });
  }

  static void tensor_free(cae_context ctx, cae_tensor t) {
    if (ctx == nullptr || t == nullptr) return;
    Context& c = *ctx;
    Tensor* tensor = t;
    // A tensor of another context (or freed twice) is ignored: nothing to report through.
    auto found = c.tensors.find(tensor);
    if (found == c.tensors.end()) return;
    c.tensors.erase(found);
    cudaSetDevice(c.device);
    device_ops::tensor_freeing(c, *tensor);
    // cudaFree waits for the kernels that may still use the memory.
    device_free(tensor->data, tensor->bytes, c.memory);
    delete tensor;
  }

  static cae_status tensor_upload(cae_context ctx, cae_tensor t, const float* src, size_t count) {
    return guard(ctx, [&] {
      Context& c = context_argument(ctx, "tensor_upload");
      Tensor& tensor = *tensor_argument(c, t, "tensor_upload", "t");
      require(src != nullptr, "tensor_upload: src is NULL");
      check_transfer_count("tensor_upload", tensor.shape, count);
      c.activate();
      device_ops::upload(c, tensor, src, count);
    });
  }

  static cae_status tensor_download(cae_context ctx, cae_tensor t, float* dst, size_t count) {
    return guard(ctx, [&] {
      Context& c = context_argument(ctx, "tensor_download");
      const Tensor& tensor = *tensor_argument(c, t, "tensor_download", "t");
      require(dst != nullptr, "tensor_download: dst is NULL");
      check_transfer_count("tensor_download", tensor.shape, count);
      c.activate();
      const float* boundary = device_ops::boundary_order(c, tensor, count);
      // One DMA, from pageable memory or from this context's page-locked blocks
      // alike (the driver reads the latter at full bus speed).
      CAE_CUDA_CHECK(
          cudaMemcpyAsync(dst, boundary, count * sizeof(float), cudaMemcpyDeviceToHost, c.stream));
      // Also reports errors of earlier asynchronous work on the stream.
      CAE_CUDA_CHECK(cudaStreamSynchronize(c.stream));
    });
  }
};

// For the context's destructor: lets queued work finish, then frees every
// tensor still alive.
template <typename Context>
void free_live_tensors(Context& c) noexcept {
  cudaSetDevice(c.device);
  cudaStreamSynchronize(c.stream);
  for (auto* t : c.tensors) {
    device_free(t->data, t->bytes, c.memory);
    delete t;
  }
  c.tensors.clear();
}

}  // namespace cuda
}  // namespace cae_plugin
