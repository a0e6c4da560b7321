#include "v1_scratch.hpp"

namespace v1 {

float* ScratchBuffer::get(size_t count, cudaStream_t stream,
                          cae_plugin::cuda::MemoryTracker& tracker) {
  if (count <= capacity_ && data_) return data_;
  CAE_CUDA_CHECK(cudaStreamSynchronize(stream));
  release(tracker);
  // Some head room so that slowly growing sizes do not reallocate every time.
  size_t grown = count + count / 4;
  data_ = cae_plugin::cuda::device_alloc_floats(grown, tracker, what_);
  capacity_ = grown;
  return data_;
}

void ScratchBuffer::release(cae_plugin::cuda::MemoryTracker& tracker) noexcept {
  cae_plugin::cuda::device_free(data_, capacity_ * sizeof(float), tracker);
  data_ = nullptr;
  capacity_ = 0;
}

}  // namespace v1
