#include "v2_workspace.hpp"

namespace cae_v2 {

namespace {
// Growth granularity: 4 MiB, so that a sequence of slightly larger requests
// (the layers of the first step) does not reallocate every time.
constexpr size_t kGrowthFloats = size_t(1) << 20;
}  // namespace

Workspace::~Workspace() { release(); }

void Workspace::release() noexcept {
  cae_plugin::cuda::device_free(data_, capacity_floats_ * sizeof(float), tracker_);
  data_ = nullptr;
  capacity_floats_ = 0;
}

float* Workspace::reserve(size_t floats) {
  if (floats <= capacity_floats_ && data_ != nullptr) return data_;
  const size_t wanted = (floats + kGrowthFloats) / kGrowthFloats * kGrowthFloats;  // > 0
  // Work queued earlier on the stream may still read the old buffer: let it
  // finish before the buffer goes (this happens only when a larger shape
  // appears, never in a steady-state step).
  CAE_CUDA_CHECK(cudaStreamSynchronize(stream_));
  release();
  data_ = cae_plugin::cuda::device_alloc_floats(wanted, tracker_, "the v2 workspace");
  capacity_floats_ = wanted;
  return data_;
}

}  // namespace cae_v2
