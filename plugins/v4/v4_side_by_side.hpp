// Work on the context's side stream beside what its own stream runs, for
// parts of a step that each leave the GPU partly idle: a convolution's data
// gradient beside its weight gradient (at batch 64 each GEMM's grid fills
// about one wave, and tiles of one fill the other's idle multiprocessors),
// and a graph's weight forms beside its FP32 first layer. Forks at
// construction (after what the side work reads is queued) and joins at
// destruction, whatever happens in between, so the results are ordered as if
// on one stream (and a capture never ends forked). The two sides share only
// read-only operands; each writes its own outputs.
#pragma once

#include <cuda_runtime.h>

#include "runtime_context.hpp"

namespace cae_v4 {

class SideBySide {
 public:
  SideBySide(cae_cuda::Context& ctx, bool wanted) : ctx_(ctx), wanted_(wanted) {
    if (wanted_) ctx_.side.fork(ctx_.stream);
  }
  ~SideBySide() {
    if (!wanted_) return;
    try {
      ctx_.side.join(ctx_.stream);
    } catch (...) {
      // A failed join leaves the side work unordered: wait for all of it.
      cudaDeviceSynchronize();
    }
  }
  SideBySide(const SideBySide&) = delete;
  SideBySide& operator=(const SideBySide&) = delete;

  // Runs `queue` with the context's launches going to the side stream.
  template <class Queue>
  void run(Queue&& queue) const {
    if (!wanted_) return queue();
    const cae_cuda::OnStream on(ctx_.stream, ctx_.side.stream());
    queue();
  }

 private:
  cae_cuda::Context& ctx_;
  bool wanted_;
};

}  // namespace cae_v4
