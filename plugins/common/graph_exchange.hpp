// The all_reduce_sum nodes (ABI 1.6) for a backend that runs graphs node by
// node: the members of a group reach each exchange on their own threads (one
// graph_run per member, all in flight at once); the last to arrive calls the
// backend's group_all_reduce_sum for everyone's tensor, exactly the call the
// host makes between the backward pass and the update when it runs a step op
// by op, and releases the others. So the exchange gives the op path's
// numbers; it overlaps nothing (a backend that overlaps it with the backward
// pass does the exchange itself).
//
// A member whose run fails (before or at an exchange) marks the group's
// exchange failed: the members waiting are woken with that failure, and
// every later exchange on the group fails at once, so no member waits for
// one that will never come. The graphs of the group must then be destroyed.
#pragma once

#include <cae/backend.h>

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace cae_plugin {

using AllReduceSum = cae_status (*)(cae_group, const cae_tensor*, int32_t, float);
using LastError = const char* (*)(cae_context);

class GroupExchange {
 public:
  // The exchange of `group` (members contexts), shared by every graph
  // compiled for it in this process; throws Error(INVALID_ARGUMENT) when a
  // graph names the group with another size than the first one did.
  static std::shared_ptr<GroupExchange> of(cae_group group, int32_t members);

  GroupExchange(cae_group group, int32_t members)
      : group_(group), tensors_(size_t(members), nullptr) {}

  // Member `member`'s tensor t; returns once every member's t holds
  // scale x the sum. Throws Error when the exchange failed, naming why.
  void all_reduce(int32_t member, cae_tensor t, float scale, AllReduceSum reduce,
                  LastError last_error, cae_context ctx);
  // Returns once every member has called meet (a barrier): for a backend
  // that queues a whole run's exchanges on the device at once (a captured
  // graph), so that none queues them unless every member will; a member
  // that cannot run calls fail_for_everyone instead, and the others' meet
  // throws Error. Every member meets the same times between its exchanges.
  void meet(int32_t member);
  // A member's run failed: the exchange fails for everyone.
  void fail_for_everyone(const std::string& why) noexcept;

 private:
  // Counts the caller in: true for the last member of the round (which
  // then calls next_round), else returns when the round is over (throws
  // Error when the exchange failed meanwhile). Under the lock.
  bool arrive(std::unique_lock<std::mutex>& lock);
  void next_round();

  cae_group group_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<cae_tensor> tensors_;
  int32_t arrived_ = 0;
  uint64_t round_ = 0;
  bool failed_ = false;
  std::string why_;
};

}  // namespace cae_plugin
