// Several contexts of one backend (one per device) that sum tensors across
// one another: with the backend's ABI 1.1 group members when it has them
// (NCCL on the CUDA backends), else through host memory (download every
// member's tensors, sum in member order 0..N-1, upload). Both give every
// member the same values, and the same values on every run.
#pragma once

#include <cae/backend.h>

#include <vector>

#include "plugin/context.hpp"

namespace cae {

class DeviceGroup {
 public:
  // members: distinct contexts of one backend, in a fixed order; they must
  // outlive the group. force_host_exchange skips the backend's members (tests).
  explicit DeviceGroup(std::vector<Context*> members, bool force_host_exchange = false);
  ~DeviceGroup();
  DeviceGroup(const DeviceGroup&) = delete;
  DeviceGroup& operator=(const DeviceGroup&) = delete;

  size_t size() const { return members_.size(); }
  // True when the backend's collectives run, false for the host exchange.
  bool backend_collectives() const { return group_ != nullptr; }
  // The backend's group (NULL with the host exchange): what graphs that
  // exchange inside themselves name (ABI 1.6).
  cae_group handle() const { return group_; }

  // tensors[m][i] = scale * sum over members k of tensors[k][i], in place, for
  // every member m: one call for the whole list (one fused exchange). Every
  // member's list has the same length and shapes. Call from one thread while
  // no other work is issued on the members.
  void all_reduce_sum(const std::vector<std::vector<Tensor*>>& tensors, float scale);

 private:
  void host_exchange(const std::vector<std::vector<Tensor*>>& tensors, float scale);

  std::vector<Context*> members_;
  cae_group group_ = nullptr;
};

}  // namespace cae
