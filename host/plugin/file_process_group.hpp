// The host's FALLBACK exchange for a group of processes whose backend has no
// ABI 1.2 members (the cpu backend, third-party plugins): each rank writes
// its fused tensors to a file beside the group's id file, reads every other
// rank's, and sums them in rank order 0..W-1 in float before one
// multiplication by the scale: the arithmetic of the in-process host exchange
// (device_group), so W processes give the values of W contexts in one.
// Made for one host (or a shared file system) and for tests; GPUs go through
// the backend's collectives (NCCL), never through here.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "plugin/process_group.hpp"

namespace cae {

class FileProcessGroup : public ProcessGroup {
 public:
  // Files are named "<prefix>.s<step>.r<rank>". Waits (at most `timeout` for
  // each file) until every rank has joined. Throws std::runtime_error.
  FileProcessGroup(std::string prefix, int32_t rank, int32_t world,
                   std::chrono::milliseconds timeout);
  // Rank 0 waits (within the timeout) until every rank is done, then removes
  // the group's files; the others say they are done. While an exception
  // unwinds, a rank only removes its own file.
  ~FileProcessGroup() override;

  bool backend_collectives() const override { return false; }
  void all_reduce_sum(const std::vector<Tensor*>& tensors, float scale) override;

 private:
  // Sums `values` across the ranks in place (no scale).
  void exchange(std::vector<float>& values);
  std::string step_file(int64_t step, int32_t rank) const;
  std::string done_file(int32_t rank) const;
  // The file's bytes once it exists; throws when it does not within the timeout.
  std::string await_file(const std::string& path, int32_t from_rank) const;

  std::string prefix_;
  std::chrono::milliseconds timeout_;
  int64_t step_ = 0;
};

}  // namespace cae
