#include "plugin/device_group.hpp"

#include <stdexcept>
#include <string>

namespace cae {
namespace {

bool has_group_members(const cae_backend_table& table) {
  return CAE_TABLE_HAS(&table, group_create) && CAE_TABLE_HAS(&table, group_all_reduce_sum) &&
         CAE_TABLE_HAS(&table, group_destroy);
}

}  // namespace

DeviceGroup::DeviceGroup(std::vector<Context*> members, bool force_host_exchange)
    : members_(std::move(members)) {
  if (members_.empty()) throw std::invalid_argument("a device group needs at least one context");
  const cae_backend_table& table = members_[0]->table();
  for (const Context* member : members_) {
    if (&member->table() != &table) {
      throw std::invalid_argument("a device group's contexts must come from one backend");
    }
  }
  if (force_host_exchange || members_.size() < 2 || !has_group_members(table)) return;
  std::vector<cae_context> handles;
  for (const Context* member : members_) handles.push_back(member->handle());
  const cae_status status =
      table.group_create(handles.data(), static_cast<int32_t>(handles.size()), &group_);
  if (status == CAE_STATUS_UNSUPPORTED) {
    group_ = nullptr;  // these contexts cannot form a group: exchange through the host
    return;
  }
  if (status != CAE_STATUS_OK || !group_) {
    const cae_status reported = status == CAE_STATUS_OK ? CAE_STATUS_INTERNAL : status;
    throw BackendError(reported,
                       members_[0]->backend_name() + ": " +
                           with_call("group_create", table.last_error(nullptr), reported));
  }
}

DeviceGroup::~DeviceGroup() {
  if (group_) members_[0]->table().group_destroy(group_);
}

void DeviceGroup::all_reduce_sum(const std::vector<std::vector<Tensor*>>& tensors, float scale) {
  if (tensors.size() != members_.size()) {
    throw std::invalid_argument("all_reduce_sum: " + std::to_string(tensors.size()) +
                                " tensor lists for " + std::to_string(members_.size()) +
                                " members");
  }
  const size_t per = tensors[0].size();
  for (size_t m = 0; m < tensors.size(); ++m) {
    if (tensors[m].size() != per) {
      throw std::invalid_argument("all_reduce_sum: member " + std::to_string(m) + " lists " +
                                  std::to_string(tensors[m].size()) + " tensors, member 0 " +
                                  std::to_string(per));
    }
    for (size_t i = 0; i < per; ++i) {
      if (tensors[m][i]->dims() != tensors[0][i]->dims()) {
        throw std::invalid_argument("all_reduce_sum: tensor " + std::to_string(i) +
                                    " differs in shape between member 0 and member " +
                                    std::to_string(m));
      }
    }
  }
  if (!group_) {
    host_exchange(tensors, scale);
    return;
  }
  std::vector<cae_tensor> handles;
  for (const auto& list : tensors) {
    for (const Tensor* t : list) handles.push_back(t->handle());
  }
  members_[0]->check(members_[0]->table().group_all_reduce_sum(group_, handles.data(),
                                                               static_cast<int32_t>(per), scale),
                     "group_all_reduce_sum");
}

// One fused host buffer per member (every tensor back to back); the sum runs
// over members in order 0..N-1 in float, then one multiplication by scale:
// the arithmetic the cpu backend's group member uses too.
void DeviceGroup::host_exchange(const std::vector<std::vector<Tensor*>>& tensors, float scale) {
  std::vector<size_t> offsets{0};
  for (const Tensor* t : tensors[0]) offsets.push_back(offsets.back() + size_t(t->count()));
  const size_t total = offsets.back();
  std::vector<float> sum(total, 0.0f), fused(total);
  for (const auto& list : tensors) {
    for (size_t i = 0; i < list.size(); ++i) {
      list[i]->download(fused.data() + offsets[i], offsets[i + 1] - offsets[i]);
    }
    for (size_t e = 0; e < total; ++e) sum[e] += fused[e];
  }
  for (float& value : sum) value *= scale;
  for (const auto& list : tensors) {
    for (size_t i = 0; i < list.size(); ++i) {
      list[i]->upload(sum.data() + offsets[i], offsets[i + 1] - offsets[i]);
    }
  }
}

}  // namespace cae
