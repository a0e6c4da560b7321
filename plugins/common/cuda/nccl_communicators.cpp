#include "nccl_communicators.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <thread>

#include "plugin_support.hpp"

#ifdef CAE_HAVE_NCCL
#include <nccl.h>
#endif

namespace cae_plugin {
namespace cuda {

#ifdef CAE_HAVE_NCCL

namespace {

void check_nccl(ncclResult_t result, const char* call) {
  if (result == ncclSuccess) return;
  throw Error(CAE_STATUS_DEVICE_ERROR,
              std::string(call) + " failed: " + ncclGetErrorString(result));
}

// The state of `comm` once its last call has left ncclInProgress. A
// communicator that spans processes is non-blocking (so that its join can be
// bounded), and then any call on it may return ncclInProgress while NCCL
// finishes it in the background; what comes after the join (enqueueing a
// collective, finalizing) does not wait on other processes and ends promptly.
ncclResult_t settled(ncclComm_t comm, ncclResult_t result) {
  while (result == ncclInProgress) {
    if (ncclCommGetAsyncError(comm, &result) != ncclSuccess) return ncclInternalError;
  }
  return result;
}

// check_nccl for a call on `comm`, which may be non-blocking.
void check_nccl_on(ncclComm_t comm, ncclResult_t result, const char* call) {
  check_nccl(settled(comm, result), call);
}

// Polls a non-blocking ncclCommInitRankConfig until every rank has joined,
// for at most `timeout`; on failure or timeout aborts the communicator (which
// frees it) and throws one line.
void await_join(ncclComm_t comm, ncclResult_t result, int rank, int world,
                std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (result == ncclInProgress && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    if (ncclCommGetAsyncError(comm, &result) != ncclSuccess) result = ncclInternalError;
  }
  if (result == ncclSuccess) return;
  ncclCommAbort(comm);
  const std::string who =
      "group_join: rank " + std::to_string(rank) + " of " + std::to_string(world);
  if (result == ncclInProgress) {
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%g s", double(timeout.count()) / 1000.0);
    throw Error(CAE_STATUS_UNAVAILABLE,
                who + ": not every rank joined NCCL's communicator within " + seconds +
                    " (did a rank stop, or never start?); communicator aborted");
  }
  throw Error(CAE_STATUS_DEVICE_ERROR,
              who + ": ncclCommInitRankConfig failed: " + ncclGetErrorString(result) +
                  " (did a rank stop, or never start?)");
}

// Ends the NCCL group even when a call inside it throws.
class NcclGroupScope {
 public:
  NcclGroupScope() { check_nccl(ncclGroupStart(), "ncclGroupStart"); }
  ~NcclGroupScope() {
    if (open_) ncclGroupEnd();
  }
  // Ends the group; on a non-blocking communicator (`comm`, else nullptr) the
  // launch may still be in progress when ncclGroupEnd returns.
  void end(ncclComm_t non_blocking = nullptr) {
    open_ = false;
    const ncclResult_t result = ncclGroupEnd();
    if (non_blocking) {
      check_nccl_on(non_blocking, result, "ncclGroupEnd");
    } else {
      check_nccl(result, "ncclGroupEnd");
    }
  }

 private:
  bool open_ = true;
};

// `scale` x the sum as one communicator's reduction operator: NCCL's sum,
// or a pre-multiplied sum made for the calls in this object's lifetime. It
// may go once the last call given it has returned (the scale is taken by
// value: a captured graph replays it without the operator).
class ScaledSum {
 public:
  ScaledSum(ncclComm_t comm, float scale) : comm_(comm) {
    if (scale == 1.0f) return;
    check_nccl_on(
        comm, ncclRedOpCreatePreMulSum(&op_, &scale, ncclFloat32, ncclScalarHostImmediate, comm),
        "ncclRedOpCreatePreMulSum");
    made_ = true;
  }
  ~ScaledSum() {
    if (made_) ncclRedOpDestroy(op_, comm_);
  }
  ScaledSum(const ScaledSum&) = delete;
  ScaledSum& operator=(const ScaledSum&) = delete;
  ncclRedOp_t op() const { return op_; }

 private:
  ncclComm_t comm_;
  ncclRedOp_t op_ = ncclSum;
  bool made_ = false;
};

}  // namespace

struct NcclCommunicators::State {
  std::vector<ncclComm_t> comms;
  bool non_blocking = false;  // the communicator spanning processes
};

NcclCommunicators::NcclCommunicators(const std::vector<int>& devices)
    : state_(std::make_unique<State>()) {
  require(!devices.empty(), "group_create: no device");
  for (size_t i = 0; i < devices.size(); ++i) {
    if (std::count(devices.begin(), devices.end(), devices[i]) > 1) {
      throw Error(CAE_STATUS_UNSUPPORTED,
                  "group_create: device " + std::to_string(devices[i]) +
                      " holds several of the group's contexts; NCCL takes one rank per device");
    }
  }
  state_->comms.resize(devices.size());
  check_nccl(
      ncclCommInitAll(state_->comms.data(), static_cast<int>(devices.size()), devices.data()),
      "ncclCommInitAll");
}

NcclCommunicators::NcclCommunicators(int rank, int world, const void* id, size_t bytes,
                                     std::chrono::milliseconds timeout)
    : state_(std::make_unique<State>()) {
  require(world >= 1 && rank >= 0 && rank < world,
          "group_join: rank " + std::to_string(rank) + " is outside 0.." +
              std::to_string(world - 1) + " (world " + std::to_string(world) + ")");
  require(id != nullptr && bytes == sizeof(ncclUniqueId),
          "group_join: the id has " + std::to_string(bytes) + " bytes, NCCL's has " +
              std::to_string(sizeof(ncclUniqueId)));
  ncclUniqueId unique{};
  std::memcpy(&unique, id, sizeof unique);
  ncclConfig_t config = NCCL_CONFIG_INITIALIZER;
  config.blocking = 0;  // returns at once; the join is polled against the timeout
  ncclComm_t comm = nullptr;
  const ncclResult_t result = ncclCommInitRankConfig(&comm, world, unique, rank, &config);
  if (comm == nullptr) check_nccl(result, "ncclCommInitRankConfig");
  await_join(comm, result, rank, world, timeout);
  state_->comms.push_back(comm);
  state_->non_blocking = true;
}

std::vector<unsigned char> NcclCommunicators::unique_id() {
  ncclUniqueId unique{};
  check_nccl(ncclGetUniqueId(&unique), "ncclGetUniqueId");
  const auto* first = reinterpret_cast<const unsigned char*>(&unique);
  return std::vector<unsigned char>(first, first + sizeof unique);
}

NcclCommunicators::~NcclCommunicators() {
  for (ncclComm_t comm : state_->comms) {
    // A non-blocking communicator finishes its pending work before it is freed.
    if (state_->non_blocking) settled(comm, ncclCommFinalize(comm));
    ncclCommDestroy(comm);
  }
}

void NcclCommunicators::all_reduce_sum(const std::vector<float*>& buffers,
                                       const std::vector<size_t>& counts,
                                       const std::vector<cudaStream_t>& streams, float scale) {
  const size_t ranks = state_->comms.size();
  const size_t per_rank = counts.size();
  require(buffers.size() == ranks * per_rank && streams.size() == ranks,
          "group_all_reduce_sum: the tensor list does not match the group");
  std::vector<std::unique_ptr<ScaledSum>> ops;
  for (size_t r = 0; r < ranks; ++r) {
    ops.push_back(std::make_unique<ScaledSum>(state_->comms[r], scale));
  }
  NcclGroupScope group;
  for (size_t r = 0; r < ranks; ++r) {
    for (size_t i = 0; i < per_rank; ++i) {
      float* data = buffers[r * per_rank + i];
      check_nccl_on(state_->comms[r],
                    ncclAllReduce(data, data, counts[i], ncclFloat32, ops[r]->op(),
                                  state_->comms[r], streams[r]),
                    "ncclAllReduce");
    }
  }
  group.end(state_->non_blocking ? state_->comms.front() : nullptr);
}

void NcclCommunicators::all_reduce_sum_rank(size_t rank, const std::vector<float*>& buffers,
                                            const std::vector<size_t>& counts,
                                            cudaStream_t stream, float scale) {
  require(rank < state_->comms.size(), "all_reduce_sum: rank " + std::to_string(rank) +
                                           " is not one of the group's " +
                                           std::to_string(state_->comms.size()));
  require(buffers.size() == counts.size(), "all_reduce_sum: a count per buffer");
  ncclComm_t comm = state_->comms[rank];
  const ScaledSum sum(comm, scale);
  NcclGroupScope group;
  for (size_t i = 0; i < buffers.size(); ++i) {
    check_nccl_on(
        comm, ncclAllReduce(buffers[i], buffers[i], counts[i], ncclFloat32, sum.op(), comm, stream),
        "ncclAllReduce");
  }
  group.end(state_->non_blocking ? comm : nullptr);
}

size_t NcclCommunicators::local_ranks() const { return state_->comms.size(); }

#else  // built without NCCL

struct NcclCommunicators::State {};

NcclCommunicators::NcclCommunicators(const std::vector<int>&) {
  throw Error(CAE_STATUS_UNSUPPORTED, "group_create: this backend was built without NCCL");
}

NcclCommunicators::NcclCommunicators(int, int, const void*, size_t, std::chrono::milliseconds) {
  throw Error(CAE_STATUS_UNSUPPORTED, "group_join: this backend was built without NCCL");
}

std::vector<unsigned char> NcclCommunicators::unique_id() {
  throw Error(CAE_STATUS_UNSUPPORTED, "group_unique_id: this backend was built without NCCL");
}

NcclCommunicators::~NcclCommunicators() = default;

void NcclCommunicators::all_reduce_sum(const std::vector<float*>&, const std::vector<size_t>&,
                                       const std::vector<cudaStream_t>&, float) {
  throw Error(CAE_STATUS_UNSUPPORTED, "group_all_reduce_sum: this backend was built without NCCL");
}

void NcclCommunicators::all_reduce_sum_rank(size_t, const std::vector<float*>&,
                                            const std::vector<size_t>&, cudaStream_t, float) {
  throw Error(CAE_STATUS_UNSUPPORTED, "all_reduce_sum: this backend was built without NCCL");
}

size_t NcclCommunicators::local_ranks() const { return 0; }

#endif

}  // namespace cuda
}  // namespace cae_plugin
