// The gradient exchange of data parallelism inside v4's captured graphs
// (ABI 1.6 all_reduce_sum nodes), overlapped with the backward pass.
//
// The builder puts each exchange right after the node that finishes its
// gradient, and the backward pass goes on to earlier layers while nothing
// reads that gradient until the optimiser's update. So each exchange forks
// to a stream of its own (the highest priority the device has, so that
// NCCL's blocks are scheduled as soon as the convolutions free an SM), sums
// the gradient with the other members through NCCL there, and only the
// first node that touches the tensor again waits for it: the exchanges of
// the later layers run beside the backward pass of the earlier ones instead
// of all of them after it. Exchanges that follow one another with no node
// between them (a layer's weight and bias gradients, which one node
// finishes) go in one NCCL group: one launch, one wait. Captured like the
// rest of the walk, a replay does the same with no host work per exchange.
#pragma once

#include <cae/backend.h>
#include <cuda_runtime.h>

#include <vector>

#include "graph_description.hpp"
#include "runtime_context.hpp"

namespace cae_v4 {

class OverlappedExchanges {
 public:
  // For graph `description` of member description.group_member of its
  // group; ctx must be that member's context. Makes the stream and events
  // (none for a graph without exchanges).
  OverlappedExchanges(cae_cuda::Context& ctx, const cae_plugin::GraphDescription& description);
  ~OverlappedExchanges();
  OverlappedExchanges(const OverlappedExchanges&) = delete;
  OverlappedExchanges& operator=(const OverlappedExchanges&) = delete;

  bool any() const { return !done_.empty(); }
  // Forgets what an earlier walk left (one that failed part way).
  void restart() {
    pending_.clear();
    gathered_.clear();
  }
  // Node `node` (an all_reduce_sum) on tensor t: queued on the exchange
  // stream after everything queued for t so far, with the exchanges right
  // before and after it (issued when the next other node comes, or join).
  void start(size_t node, cae_tensor t);
  // Before node `node` runs: the context's stream waits for the exchanges of
  // the tensors it reads or writes.
  void before(size_t node, const std::vector<cae_tensor>& tensors);
  // The context's stream waits for every exchange still in flight (the end
  // of a walk: a capture must end with every stream it forked joined).
  void join();

 private:
  void wait_for(size_t pending_index);
  // Issues the exchanges gathered by start() as one NCCL group.
  void issue();
  void release() noexcept;

  cae_cuda::Context& ctx_;
  const cae_plugin::GraphDescription& description_;
  cudaStream_t stream_ = nullptr;
  std::vector<cudaEvent_t> ready_;  // per node: its gradient is final (exchanges only)
  std::vector<cudaEvent_t> done_;   // per node: its exchange is done (exchanges only)
  struct Pending {
    cae_tensor tensor;
    size_t node;
  };
  std::vector<Pending> pending_;
  std::vector<Pending> gathered_;  // started, not yet issued
};

}  // namespace cae_v4
