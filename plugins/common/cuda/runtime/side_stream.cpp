#include "side_stream.hpp"

#include "cuda_support.hpp"

namespace cae_cuda {

void SideStream::create() {
  try {
    CAE_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    CAE_CUDA_CHECK(cudaEventCreateWithFlags(&forked_, cudaEventDisableTiming));
    CAE_CUDA_CHECK(cudaEventCreateWithFlags(&joined_, cudaEventDisableTiming));
  } catch (...) {
    release();  // none of it half made
    throw;
  }
}

SideStream::~SideStream() { release(); }

void SideStream::release() noexcept {
  if (stream_) cudaStreamSynchronize(stream_);
  if (joined_) cudaEventDestroy(joined_);
  if (forked_) cudaEventDestroy(forked_);
  if (stream_) cudaStreamDestroy(stream_);
  stream_ = nullptr;
  forked_ = joined_ = nullptr;
}

void SideStream::fork(cudaStream_t main) {
  if (!stream_) create();
  CAE_CUDA_CHECK(cudaEventRecord(forked_, main));
  CAE_CUDA_CHECK(cudaStreamWaitEvent(stream_, forked_, 0));
  waited_ = true;
}

void SideStream::join(cudaStream_t main) {
  CAE_CUDA_CHECK(cudaEventRecord(joined_, stream_));
  CAE_CUDA_CHECK(cudaStreamWaitEvent(main, joined_, 0));
  waited_ = true;
}

}  // namespace cae_cuda
