// A ProcessGroup through the backend's ABI 1.2 members (group_unique_id,
// group_join, or 1.7's group_join_within where the backend has it) and its
// 1.1 group_all_reduce_sum / group_destroy.
#pragma once

#include <chrono>
#include <vector>

#include "plugin/process_group.hpp"

namespace cae {

// True when the table has every member a group of processes needs (1.1 + 1.2).
bool has_process_group_members(const cae_backend_table& table);

// A new group id from the backend (rank 0 makes it, the others receive it).
// Throws BackendError.
std::vector<unsigned char> make_backend_group_id(const cae_backend_table& table);

class BackendProcessGroup : public ProcessGroup {
 public:
  // Joins as `rank` of `world` with `context` (which must outlive the group);
  // blocks until every rank has joined, for at most `timeout` where the
  // backend bounds the join (ABI 1.7; a 1.2 backend bounds it by its own
  // limit). Throws BackendError.
  BackendProcessGroup(Context& context, int32_t rank, int32_t world,
                      const std::vector<unsigned char>& id, std::chrono::milliseconds timeout);
  ~BackendProcessGroup() override;

  bool backend_collectives() const override { return true; }
  void all_reduce_sum(const std::vector<Tensor*>& tensors, float scale) override;

 private:
  Context& context_;
  cae_group group_ = nullptr;
};

}  // namespace cae
