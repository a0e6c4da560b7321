// NCCL communicators over the devices of a group of CUDA contexts (ABI 1.1
// collectives), shared by the CUDA backends. NCCL is linked dynamically, like
// cuBLAS. It picks its own transport (NVLink, PCIe, ...); nothing here sets
// NCCL's environment, so NCCL_NVLS_ENABLE (NVLink multicast) stays as the
// machine sets it.
//
// Plugins only. Without NCCL at build time (CAE_HAVE_NCCL undefined) creating
// communicators fails with CAE_STATUS_UNSUPPORTED and the host sums through
// host memory instead.
#pragma once

#include <cuda_runtime.h>

#include <chrono>
#include <cstddef>
#include <memory>
#include <vector>

namespace cae_plugin {
namespace cuda {

class NcclCommunicators {
 public:
  // One communicator per device, rank i on devices[i]. Throws Error:
  // CAE_STATUS_UNSUPPORTED when a device appears twice (NCCL allows one rank
  // per device in a communicator) or NCCL is missing; DEVICE_ERROR naming the
  // NCCL call otherwise.
  explicit NcclCommunicators(const std::vector<int>& devices);
  // ABI 1.2: this process's one rank of a communicator spanning `world`
  // processes on the current device, named by an id from unique_id(). The
  // communicator is made non-blocking (ncclCommInitRankConfig, blocking = 0)
  // and polled until every rank has joined, for at most `timeout`: a rank
  // that died or never started makes this throw Error (DEVICE_ERROR, one
  // line) after ncclCommAbort, instead of waiting forever.
  NcclCommunicators(int rank, int world, const void* id, size_t bytes,
                    std::chrono::milliseconds timeout);
  // A new id for a communicator spanning processes (ncclGetUniqueId): plain
  // bytes the other processes receive through a file or the environment.
  static std::vector<unsigned char> unique_id();
  ~NcclCommunicators();
  NcclCommunicators(const NcclCommunicators&) = delete;
  NcclCommunicators& operator=(const NcclCommunicators&) = delete;

  // In place on every local rank r and list index i < per_rank (the sum runs
  // over every rank of the communicator, local or in other processes):
  //   buffers[r * per_rank + i] = sum over ranks of scale * buffers[k * per_rank + i]
  // counts[i] floats each; queued on streams[r]. Every rank's calls sit between
  // one ncclGroupStart/ncclGroupEnd, which NCCL aggregates into one launch per
  // device. A scale other than 1 is NCCL's pre-multiplied sum.
  void all_reduce_sum(const std::vector<float*>& buffers, const std::vector<size_t>& counts,
                      const std::vector<cudaStream_t>& streams, float scale);

  // Local rank `rank`'s part of all-reduces that every rank issues on its
  // own, each from its own thread: in place, buffers[i] (counts[i] floats)
  // becomes `scale` x the sum over the ranks, all of them in one NCCL group
  // (one launch), queued on `stream`. For a backend that starts each
  // tensor's exchange as soon as that tensor is final
  // (plugins/v4/v4_graph_exchanges.cpp); every rank must issue the same
  // calls in the same order. Works inside a stream capture.
  void all_reduce_sum_rank(size_t rank, const std::vector<float*>& buffers,
                           const std::vector<size_t>& counts, cudaStream_t stream, float scale);
  size_t local_ranks() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace cuda
}  // namespace cae_plugin
