#include "graph_exchange.hpp"

#include <map>

#include "plugin_support.hpp"

namespace cae_plugin {

std::shared_ptr<GroupExchange> GroupExchange::of(cae_group group, int32_t members) {
  static std::mutex registry_mutex;
  static std::map<cae_group, std::weak_ptr<GroupExchange>> registry;
  std::lock_guard<std::mutex> lock(registry_mutex);
  std::shared_ptr<GroupExchange> exchange = registry[group].lock();
  if (exchange) {
    require(exchange->tensors_.size() == size_t(members),
            "graph_compile: the group was named with " + std::to_string(exchange->tensors_.size()) +
                " members by another graph, " + std::to_string(members) + " by this one");
    return exchange;
  }
  exchange = std::make_shared<GroupExchange>(group, members);
  registry[group] = exchange;
  return exchange;
}

bool GroupExchange::arrive(std::unique_lock<std::mutex>& lock) {
  const uint64_t round = round_;
  if (++arrived_ == int32_t(tensors_.size())) return true;
  changed_.wait(lock, [&] { return failed_ || round_ != round; });
  if (round_ == round) cae_plugin::fail(CAE_STATUS_INTERNAL, "the group's exchange failed: " + why_);
  return false;
}

void GroupExchange::next_round() {
  for (cae_tensor& slot : tensors_) slot = nullptr;
  arrived_ = 0;
  ++round_;
  changed_.notify_all();
}

void GroupExchange::all_reduce(int32_t member, cae_tensor t, float scale, AllReduceSum reduce,
                               LastError last_error, cae_context ctx) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (failed_) cae_plugin::fail(CAE_STATUS_INTERNAL, "the group's exchange failed: " + why_);
  require(tensors_[size_t(member)] == nullptr,
          "member " + std::to_string(member) + " reached an exchange twice");
  tensors_[size_t(member)] = t;
  if (!arrive(lock)) return;
  // The last member: everyone's tensor is final, and every other member waits.
  const cae_status status = reduce(group_, tensors_.data(), 1, scale);
  if (status != CAE_STATUS_OK) {
    failed_ = true;
    why_ = std::string("group_all_reduce_sum: ") + last_error(ctx);
    changed_.notify_all();
    cae_plugin::fail(status, why_);
  }
  next_round();
}

void GroupExchange::meet(int32_t member) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (failed_) cae_plugin::fail(CAE_STATUS_INTERNAL, "the group's exchange failed: " + why_);
  require(member >= 0 && member < int32_t(tensors_.size()),
          "member " + std::to_string(member) + " is not one of the group's " +
              std::to_string(tensors_.size()));
  if (arrive(lock)) next_round();
}

void GroupExchange::fail_for_everyone(const std::string& why) noexcept {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!failed_) {
    failed_ = true;
    why_ = why;
  }
  changed_.notify_all();
}

}  // namespace cae_plugin
