#include "nccl_communicators.hpp"

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>

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

// Ends the NCCL group even when a call inside it throws.
class NcclGroupScope {
 public:
  NcclGroupScope() { check_nccl(ncclGroupStart(), "ncclGroupStart"); }
  ~NcclGroupScope() {
    if (open_) ncclGroupEnd();
  }
  void end() {
    open_ = false;
    check_nccl(ncclGroupEnd(), "ncclGroupEnd");
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
    check_nccl(ncclRedOpCreatePreMulSum(&op_, &scale, ncclFloat32, ncclScalarHostImmediate, comm),
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

NcclCommunicators::NcclCommunicators(int rank, int world, const void* id, size_t bytes)
    : state_(std::make_unique<State>()) {
  require(world >= 1 && rank >= 0 && rank < world,
          "group_join: rank " + std::to_string(rank) + " is outside 0.." +
              std::to_string(world - 1) + " (world " + std::to_string(world) + ")");
  require(id != nullptr && bytes == sizeof(ncclUniqueId),
          "group_join: the id has " + std::to_string(bytes) + " bytes, NCCL's has " +
              std::to_string(sizeof(ncclUniqueId)));
  ncclUniqueId unique{};
  std::memcpy(&unique, id, sizeof unique);
  state_->comms.resize(1);
  check_nccl(ncclCommInitRank(&state_->comms[0], world, unique, rank), "ncclCommInitRank");
}

std::vector<unsigned char> NcclCommunicators::unique_id() {
  ncclUniqueId unique{};
  check_nccl(ncclGetUniqueId(&unique), "ncclGetUniqueId");
  const auto* first = reinterpret_cast<const unsigned char*>(&unique);
  return std::vector<unsigned char>(first, first + sizeof unique);
}

NcclCommunicators::~NcclCommunicators() {
  for (ncclComm_t comm : state_->comms) ncclCommDestroy(comm);
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
      check_nccl(ncclAllReduce(data, data, counts[i], ncclFloat32, ops[r]->op(), state_->comms[r],
                               streams[r]),
                 "ncclAllReduce");
    }
  }
  group.end();
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
    check_nccl(ncclAllReduce(buffers[i], buffers[i], counts[i], ncclFloat32, sum.op(), comm, stream),
               "ncclAllReduce");
  }
  group.end();
}

size_t NcclCommunicators::local_ranks() const { return state_->comms.size(); }

#else  // built without NCCL

struct NcclCommunicators::State {};

NcclCommunicators::NcclCommunicators(const std::vector<int>&) {
  throw Error(CAE_STATUS_UNSUPPORTED, "group_create: this backend was built without NCCL");
}

NcclCommunicators::NcclCommunicators(int, int, const void*, size_t) {
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
