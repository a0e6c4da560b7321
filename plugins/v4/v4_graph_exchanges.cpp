#include "v4_graph_exchanges.hpp"

#include <cstddef>
#include <string>

#include "cuda_group_entries.hpp"
#include "plugin_support.hpp"
#include "runtime_entry.hpp"

namespace cae_v4 {

OverlappedExchanges::OverlappedExchanges(cae_cuda::Context& ctx,
                                         const cae_plugin::GraphDescription& description)
    : ctx_(ctx), description_(description) {
  if (!cae_plugin::graph_exchanges(description)) return;
  const cae_group group = description.group;
  const size_t member = size_t(description.group_member);
  cae_plugin::require(group != nullptr && group->nccl != nullptr &&
                          member < group->members.size() && group->members[member] == &ctx,
                      "graph_compile: group member " + std::to_string(member) +
                          " is not this context in the group's list");
  cae_plugin::require(group->nccl->local_ranks() == group->members.size(),
                      "graph_compile: the group's members are not all in this process");
  try {
    int least = 0, greatest = 0;
    CAE_CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    CAE_CUDA_CHECK(cudaStreamCreateWithPriority(&stream_, cudaStreamNonBlocking, greatest));
    ready_.assign(description.nodes.size(), nullptr);
    done_.assign(description.nodes.size(), nullptr);
    for (size_t i = 0; i < description.nodes.size(); ++i) {
      if (description.nodes[i].op != CAE_GRAPH_ALL_REDUCE_SUM) continue;
      CAE_CUDA_CHECK(cudaEventCreateWithFlags(&ready_[i], cudaEventDisableTiming));
      CAE_CUDA_CHECK(cudaEventCreateWithFlags(&done_[i], cudaEventDisableTiming));
    }
  } catch (...) {
    release();
    throw;
  }
}

OverlappedExchanges::~OverlappedExchanges() { release(); }

void OverlappedExchanges::release() noexcept {
  if (stream_) cudaStreamSynchronize(stream_);
  for (cudaEvent_t e : ready_) {
    if (e) cudaEventDestroy(e);
  }
  for (cudaEvent_t e : done_) {
    if (e) cudaEventDestroy(e);
  }
  if (stream_) cudaStreamDestroy(stream_);
  stream_ = nullptr;
  ready_.clear();
  done_.clear();
}

void OverlappedExchanges::start(size_t node, cae_tensor t) {
  // One group holds one scale (the builder gives every exchange the same).
  if (!gathered_.empty() &&
      description_.nodes[gathered_.front().node].scale != description_.nodes[node].scale) {
    issue();
  }
  gathered_.push_back({t, node});
}

void OverlappedExchanges::issue() {
  if (gathered_.empty()) return;
  const size_t first = gathered_.front().node;
  // Work the runtime holds back to fuse it with later passes may still
  // write the tensors: it is queued first, so the event covers it.
  cae_cuda::flush_deferred(ctx_);
  CAE_CUDA_CHECK(cudaEventRecord(ready_[first], ctx_.stream));
  CAE_CUDA_CHECK(cudaStreamWaitEvent(stream_, ready_[first], 0));
  std::vector<float*> buffers;
  std::vector<size_t> counts;
  for (const Pending& g : gathered_) {
    buffers.push_back(g.tensor->data);
    counts.push_back(size_t(g.tensor->shape.count()));
  }
  description_.group->nccl->all_reduce_sum_rank(size_t(description_.group_member), buffers,
                                                counts, stream_,
                                                description_.nodes[first].scale);
  CAE_CUDA_CHECK(cudaEventRecord(done_[first], stream_));
  for (const Pending& g : gathered_) {
    ctx_.wrote(g.tensor);
    pending_.push_back({g.tensor, first});  // done_[first] covers the whole group
  }
  gathered_.clear();
}

void OverlappedExchanges::wait_for(size_t pending_index) {
  CAE_CUDA_CHECK(cudaStreamWaitEvent(ctx_.stream, done_[pending_[pending_index].node], 0));
  pending_.erase(pending_.begin() + std::ptrdiff_t(pending_index));
}

void OverlappedExchanges::before(size_t node, const std::vector<cae_tensor>& tensors) {
  issue();
  if (pending_.empty()) return;
  const cae_graph_node& n = description_.nodes[node];
  const int args = cae_plugin::graph_op_arg_count(n.op);
  for (int a = 0; a < args; ++a) {
    if (n.args[a] < 0) continue;
    const cae_tensor t = tensors[size_t(n.args[a])];
    for (size_t p = 0; p < pending_.size(); ++p) {
      if (pending_[p].tensor == t) {
        wait_for(p);
        break;
      }
    }
  }
}

void OverlappedExchanges::join() {
  issue();
  while (!pending_.empty()) wait_for(pending_.size() - 1);
}

}  // namespace cae_v4
