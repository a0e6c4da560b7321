#include "v1_context.hpp"

#include <string>

#include "tensor_arguments.hpp"

using cae_plugin::cuda::device_alloc_floats;
using cae_plugin::cuda::device_free;

cae_context_s::cae_context_s(const cae_create_options* options)
    : CudaContextBase(options),
      weight_grad_partials("v1 scratch: weight-gradient partials"),
      bias_grad_partials("v1 scratch: bias-gradient partials"),
      loss_partials("v1 scratch: loss partials"),
      row_norms("v1 scratch: kernel-matrix row norms") {
  CAE_CUDA_CHECK(
      cudaDeviceGetAttribute(&multiprocessor_count, cudaDevAttrMultiProcessorCount, device));
  if (multiprocessor_count < 1) multiprocessor_count = 1;
}

cae_context_s::~cae_context_s() {
  // Nothing may still be running on memory about to be freed.
  cudaSetDevice(device);
  if (stream) cudaStreamSynchronize(stream);
  for (cae_tensor t : tensors_) {
    device_free(t->data, t->count * sizeof(float), memory);
    delete t;
  }
  tensors_.clear();
  weight_grad_partials.release(memory);
  bias_grad_partials.release(memory);
  loss_partials.release(memory);
  row_norms.release(memory);
}

cae_tensor cae_context_s::allocate_tensor(const cae_plugin::Shape& shape) {
  activate();
  auto* t = new cae_tensor_s;
  t->shape = shape;
  t->count = static_cast<size_t>(shape.count());
  try {
    t->data = device_alloc_floats(t->count, memory, ("tensor " + shape.str()).c_str());
    tensors_.insert(t);
  } catch (...) {
    device_free(t->data, t->count * sizeof(float), memory);
    delete t;
    throw;
  }
  return t;
}

void cae_context_s::free_tensor(cae_tensor tensor) noexcept {
  auto it = tensors_.find(tensor);
  if (it == tensors_.end()) return;  // not ours (or already freed): nothing to do
  cudaSetDevice(device);
  device_free(tensor->data, tensor->count * sizeof(float), memory);
  tensors_.erase(it);
  delete tensor;
}

cae_tensor_s& cae_context_s::tensor(cae_tensor tensor, const char* op, const char* name) const {
  return *cae_plugin::live_tensor(tensors_, tensor, op, name);
}
