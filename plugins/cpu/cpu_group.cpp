// ABI 1.1 collectives of the CPU backend: a group of contexts in one process
// shares the address space, so the all-reduce sums the members' tensors
// directly, in member order, with the same arithmetic as the host's fallback
// (float accumulation 0 + t0 + t1 + ... then one multiplication by scale):
// whichever path runs, the numbers are the same.
#include <memory>
#include <string>
#include <vector>

#include "cpu_context.hpp"
#include "cpu_ops.hpp"

struct cae_group_s {
  std::vector<cae_context_s*> members;
};

namespace cae_cpu {

using cae_plugin::guard;
using cae_plugin::require;

cae_status group_create(const cae_context* contexts, int32_t count, cae_group* out) {
  return guard(nullptr, [&] {
    require(out != nullptr, "group_create: out is NULL");
    *out = nullptr;
    require(contexts != nullptr, "group_create: contexts is NULL");
    require(count >= 1, "group_create: count must be >= 1, got " + std::to_string(count));
    auto group = std::make_unique<cae_group_s>();
    for (int32_t i = 0; i < count; ++i) {
      require(contexts[i] != nullptr, "group_create: contexts[" + std::to_string(i) + "] is NULL");
      for (cae_context_s* earlier : group->members) {
        require(earlier != contexts[i],
                "group_create: contexts[" + std::to_string(i) + "] appears twice");
      }
      group->members.push_back(contexts[i]);
    }
    *out = group.release();
  });
}

cae_status group_all_reduce_sum(cae_group group, const cae_tensor* tensors,
                                int32_t tensors_per_context, float scale) {
  cae_context_s* first = group && !group->members.empty() ? group->members[0] : nullptr;
  return guard(first, [&] {
    require(group != nullptr, "group_all_reduce_sum: group is NULL");
    require(tensors != nullptr, "group_all_reduce_sum: tensors is NULL");
    require(tensors_per_context >= 0, "group_all_reduce_sum: tensors_per_context is negative");
    const size_t members = group->members.size();
    const size_t per = static_cast<size_t>(tensors_per_context);
    for (size_t i = 0; i < per; ++i) {
      std::vector<cae_tensor_s*> column(members);
      for (size_t m = 0; m < members; ++m) {
        column[m] = &tensor_arg(*group->members[m], tensors[m * per + i], "group_all_reduce_sum",
                                "tensors[member * tensors_per_context + i]");
        require(column[m]->shape.str() == column[0]->shape.str(),
                "group_all_reduce_sum: tensor " + std::to_string(i) + " is " +
                    column[m]->shape.str() + " on member " + std::to_string(m) + " but " +
                    column[0]->shape.str() + " on member 0");
      }
      const int64_t count = column[0]->count();
      for (int64_t e = 0; e < count; ++e) {
        float sum = 0.0f;
        for (size_t m = 0; m < members; ++m) sum += column[m]->data()[e];
        const float value = sum * scale;
        for (size_t m = 0; m < members; ++m) column[m]->data()[e] = value;
      }
    }
  });
}

void group_destroy(cae_group group) { delete group; }

}  // namespace cae_cpu
