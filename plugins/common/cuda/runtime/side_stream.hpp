// A second stream of a context, for two independent parts of one op that
// each leave the GPU partly idle (v4's convolution backward: the data
// gradient beside the weight gradient, whose grids at batch 64 fill about
// one wave each). Work forks from the context's stream and joins it again
// before the op returns, so the ABI's one-stream ordering holds for callers.
#pragma once

#include <cuda_runtime.h>

namespace cae_cuda {

class SideStream {
 public:
  // The stream and its events are made at the first fork, on the device
  // current then (the context's): contexts that never fork (v3's) hold none.
  SideStream() = default;
  ~SideStream();
  SideStream(const SideStream&) = delete;
  SideStream& operator=(const SideStream&) = delete;

  // Valid after the first fork.
  cudaStream_t stream() const { return stream_; }
  // The side stream waits for everything queued on `main` so far.
  void fork(cudaStream_t main);
  // `main` waits for everything queued on the side stream so far.
  void join(cudaStream_t main);
  // True once after each fork or join: the next kernel launched follows a
  // wait of one stream on the other.
  bool take_stream_wait() {
    const bool waited = waited_;
    waited_ = false;
    return waited;
  }

 private:
  void create();
  void release() noexcept;

  cudaStream_t stream_ = nullptr;
  cudaEvent_t forked_ = nullptr;
  cudaEvent_t joined_ = nullptr;
  bool waited_ = false;
};

// Points a stream variable (a context's `stream`) at another stream for its
// lifetime: the launches in between go there.
class OnStream {
 public:
  OnStream(cudaStream_t& variable, cudaStream_t stream) : variable_(variable), saved_(variable) {
    variable_ = stream;
  }
  ~OnStream() { variable_ = saved_; }
  OnStream(const OnStream&) = delete;
  OnStream& operator=(const OnStream&) = delete;

 private:
  cudaStream_t& variable_;
  cudaStream_t saved_;
};

}  // namespace cae_cuda
