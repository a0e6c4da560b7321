#include "plugin/backend_process_group.hpp"

namespace cae {
namespace {

[[noreturn]] void fail(const cae_backend_table& table, const char* call, cae_status status) {
  const cae_status reported = status == CAE_STATUS_OK ? CAE_STATUS_INTERNAL : status;
  throw BackendError(reported, std::string(table.name ? table.name : "?") + ": " +
                                   with_call(call, table.last_error(nullptr), reported));
}

}  // namespace

bool has_process_group_members(const cae_backend_table& table) {
  return CAE_TABLE_HAS(&table, group_all_reduce_sum) && CAE_TABLE_HAS(&table, group_destroy) &&
         CAE_TABLE_HAS(&table, group_unique_id) && CAE_TABLE_HAS(&table, group_join);
}

std::vector<unsigned char> make_backend_group_id(const cae_backend_table& table) {
  size_t bytes = 0;
  cae_status status = table.group_unique_id(&bytes, nullptr);
  if (status != CAE_STATUS_OK) fail(table, "group_unique_id", status);
  std::vector<unsigned char> id(bytes);
  status = table.group_unique_id(&bytes, id.data());
  if (status != CAE_STATUS_OK) fail(table, "group_unique_id", status);
  id.resize(bytes);
  return id;
}

BackendProcessGroup::BackendProcessGroup(Context& context, int32_t rank, int32_t world,
                                         const std::vector<unsigned char>& id,
                                         std::chrono::milliseconds timeout)
    : ProcessGroup(rank, world), context_(context) {
  const cae_backend_table& table = context.table();
  const bool bounded = CAE_TABLE_HAS(&table, group_join_within);
  const cae_status status =
      bounded ? table.group_join_within(context.handle(), rank, world, id.data(), id.size(),
                                        static_cast<int64_t>(timeout.count()), &group_)
              : table.group_join(context.handle(), rank, world, id.data(), id.size(), &group_);
  if (status != CAE_STATUS_OK || !group_) {
    fail(table, bounded ? "group_join_within" : "group_join", status);
  }
}

BackendProcessGroup::~BackendProcessGroup() { context_.table().group_destroy(group_); }

void BackendProcessGroup::all_reduce_sum(const std::vector<Tensor*>& tensors, float scale) {
  std::vector<cae_tensor> handles;
  for (const Tensor* t : tensors) handles.push_back(t->handle());
  context_.check(context_.table().group_all_reduce_sum(
                     group_, handles.data(), static_cast<int32_t>(handles.size()), scale),
                 "group_all_reduce_sum");
}

}  // namespace cae
