#include "naive_context.hpp"

#include <string>

#include "tensor_arguments.hpp"

using cae_plugin::cuda::device_alloc_floats;
using cae_plugin::cuda::device_free;

cae_context_s::~cae_context_s() {
  // Destructors cannot report errors: a failing device is ignored here, and
  // the memory goes away with the process's CUDA context anyway.
  (void)cudaSetDevice(device);
  (void)cudaStreamSynchronize(stream);  // no kernel may still use what we free
  for (auto& entry : live_tensors_) device_free(entry.second->data, entry.second->bytes(), memory);
  live_tensors_.clear();
  release_scratch(staging);
  release_scratch(conv_weights);
  release_scratch(loss_partials);
  (void)cudaGetLastError();
}

cae_tensor_s* cae_context_s::allocate_tensor(const cae_plugin::Shape& shape) {
  auto tensor = std::make_unique<cae_tensor_s>();
  tensor->shape = shape;
  std::string what = "tensor " + shape.str();
  tensor->data = device_alloc_floats(tensor->count(), memory, what.c_str());
  cae_tensor_s* handle = tensor.get();
  try {
    live_tensors_.emplace(handle, std::move(tensor));
  } catch (...) {
    device_free(handle->data, handle->bytes(), memory);
    throw;
  }
  return handle;
}

void cae_context_s::free_tensor(cae_tensor_s* tensor) noexcept {
  auto it = live_tensors_.find(tensor);
  if (it == live_tensors_.end()) return;
  // cudaFree waits for queued work that may still read the tensor.
  device_free(tensor->data, tensor->bytes(), memory);
  live_tensors_.erase(it);
}

cae_tensor_s& cae_context_s::tensor(cae_tensor handle, const char* op, const char* name) const {
  return *cae_plugin::live_tensor(live_tensors_, handle, op, name);
}

cae_tensor_s* cae_context_s::optional_tensor(cae_tensor handle, const char* op,
                                             const char* name) const {
  return cae_plugin::optional_live_tensor(live_tensors_, handle, op, name);
}

float* cae_context_s::scratch_floats(naive::DeviceScratch& scratch, size_t count,
                                     const char* what) {
  if (scratch.capacity >= count) return scratch.data;
  CAE_CUDA_CHECK(cudaStreamSynchronize(stream));
  release_scratch(scratch);
  scratch.data = device_alloc_floats(count, memory, what);
  scratch.capacity = count;
  return scratch.data;
}

void cae_context_s::release_scratch(naive::DeviceScratch& scratch) noexcept {
  device_free(scratch.data, scratch.capacity * sizeof(float), memory);
  scratch.data = nullptr;
  scratch.capacity = 0;
}
