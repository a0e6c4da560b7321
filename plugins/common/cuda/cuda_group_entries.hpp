// The ABI 1.1 collectives (group_create, group_all_reduce_sum, group_destroy)
// and the 1.2 groups of processes (group_unique_id, group_join) as every CUDA
// backend implements them: NCCL communicators over the members' devices (or
// one rank per process), the all-reduce queued on each member's stream. A backend defines
// its three members as one-line calls to GroupEntries (see the macro at the
// end), naming how it reaches its context and how it records a write.
//
// Plugins only. Include after the backend's context and tensor headers:
// `Context` is its struct cae_context_s (deriving from CudaContextBase), and
// its struct cae_tensor_s has `shape` and `float* data` holding
// shape.count() floats (any storage order: the members of a group share it,
// since tensor i has the same shape on every member).
#pragma once

#include <cae/backend.h>

#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "cuda_lifecycle_entries.hpp"
#include "nccl_communicators.hpp"

struct cae_group_s {
  std::vector<cae_context> members;
  std::unique_ptr<cae_plugin::cuda::NcclCommunicators> nccl;
};

namespace cae_plugin {
namespace cuda {

template <typename Context>
void no_write_record(Context&, cae_tensor) {}

// kEnter: the backend's context access for ops (activates the device, flushes
// deferred work, so the tensors hold their final values before NCCL reads
// them). kWrote: records that a tensor was rewritten (e.g. a version bump).
template <typename Context, ContextAccess<Context> kEnter,
          void (*kWrote)(Context&, cae_tensor) = no_write_record<Context>,
          typename Tensor = cae_tensor_s>
struct GroupEntries {
  static_assert(std::is_same<Tensor*, cae_tensor>::value, "Tensor is struct cae_tensor_s");

  static cae_status group_create(const cae_context* contexts, int32_t count, cae_group* out) {
    return guard(nullptr, [&] {
      require(out != nullptr, "group_create: out is NULL");
      *out = nullptr;
      require(contexts != nullptr && count >= 1, "group_create: no contexts");
      auto group = std::make_unique<cae_group_s>();
      std::vector<int> devices;
      for (int32_t i = 0; i < count; ++i) {
        Context& c = kEnter(contexts[i], "group_create");
        group->members.push_back(contexts[i]);
        devices.push_back(c.device);
      }
      group->nccl = std::make_unique<NcclCommunicators>(devices);
      *out = group.release();
    });
  }

  static cae_status group_all_reduce_sum(cae_group group, const cae_tensor* tensors,
                                         int32_t tensors_per_context, float scale) {
    ContextBase* first = group && !group->members.empty() ? as_context(group->members[0]) : nullptr;
    return guard(first, [&] {
      require(group != nullptr, "group_all_reduce_sum: group is NULL");
      require(tensors != nullptr && tensors_per_context >= 0,
              "group_all_reduce_sum: no tensor list");
      const size_t per = static_cast<size_t>(tensors_per_context);
      const size_t ranks = group->members.size();
      std::vector<float*> buffers(ranks * per);
      std::vector<size_t> counts(per);
      std::vector<cudaStream_t> streams(ranks);
      for (size_t r = 0; r < ranks; ++r) {
        Context& c = kEnter(group->members[r], "group_all_reduce_sum");
        streams[r] = c.stream;
        for (size_t i = 0; i < per; ++i) {
          const Tensor* t = tensors[r * per + i];
          require(t != nullptr && t->data != nullptr, "group_all_reduce_sum: tensor " +
                                                          std::to_string(i) + " of member " +
                                                          std::to_string(r) + " is NULL");
          const size_t n = static_cast<size_t>(t->shape.count());
          if (r == 0) counts[i] = n;
          require(n == counts[i], "group_all_reduce_sum: tensor " + std::to_string(i) +
                                      " has another size on member " + std::to_string(r));
          buffers[r * per + i] = t->data;
        }
      }
      group->nccl->all_reduce_sum(buffers, counts, streams, scale);
      for (size_t r = 0; r < ranks; ++r) {
        Context& c = kEnter(group->members[r], "group_all_reduce_sum");
        for (size_t i = 0; i < per; ++i) kWrote(c, tensors[r * per + i]);
      }
    });
  }

  static void group_destroy(cae_group group) { delete group; }

  // ABI 1.2: NCCL's unique id, made by rank 0 of a group of processes.
  static cae_status group_unique_id(size_t* bytes, void* out) {
    return guard(nullptr, [&] {
      require(bytes != nullptr, "group_unique_id: bytes is NULL");
      const size_t capacity = *bytes;
      const std::vector<unsigned char> id = NcclCommunicators::unique_id();
      *bytes = id.size();
      if (out == nullptr) return;
      require(capacity >= id.size(), "group_unique_id: " + std::to_string(capacity) +
                                         " bytes cannot hold the id's " +
                                         std::to_string(id.size()));
      std::memcpy(out, id.data(), id.size());
    });
  }

  // How long ABI 1.2's group_join waits for every rank. It carries no
  // timeout, so the join is bounded by the host's default --group-timeout: a
  // rank that died or never started ends the others after it, not never.
  static constexpr std::chrono::seconds kJoinTimeout{300};

  // ABI 1.2: this process's context as rank `rank` of `world` processes; the
  // group's one local member is ctx, so group_all_reduce_sum works unchanged.
  static cae_status group_join(cae_context ctx, int32_t rank, int32_t world, const void* id,
                               size_t bytes, cae_group* out) {
    return join(ctx, rank, world, id, bytes, kJoinTimeout, out, "group_join");
  }

  // ABI 1.7: the same join, waiting at most timeout_ms (the host's --group-timeout).
  static cae_status group_join_within(cae_context ctx, int32_t rank, int32_t world,
                                      const void* id, size_t bytes, int64_t timeout_ms,
                                      cae_group* out) {
    if (timeout_ms < 1) {
      return guard(nullptr, [&] {
        if (out) *out = nullptr;
        require(false, "group_join_within: timeout_ms is " + std::to_string(timeout_ms) +
                           ", not 1 or more");
      });
    }
    return join(ctx, rank, world, id, bytes, std::chrono::milliseconds(timeout_ms), out,
                "group_join_within");
  }

 private:
  static cae_status join(cae_context ctx, int32_t rank, int32_t world, const void* id,
                         size_t bytes, std::chrono::milliseconds timeout, cae_group* out,
                         const char* call) {
    return guard(nullptr, [&] {
      require(out != nullptr, std::string(call) + ": out is NULL");
      *out = nullptr;
      kEnter(ctx, call);  // makes the context's device current
      auto group = std::make_unique<cae_group_s>();
      group->members.push_back(ctx);
      group->nccl = std::make_unique<NcclCommunicators>(rank, world, id, bytes, timeout);
      *out = group.release();
    });
  }

  // Through the template parameter, so the conversion is checked where the
  // backend's context type is complete.
  static ContextBase* as_context(cae_context ctx) {
    Context* context = ctx;
    return context;
  }
};

}  // namespace cuda
}  // namespace cae_plugin

// Defines the backend's six group members (1.1, 1.2 and 1.7's bounded join) in the current
// namespace from GroupEntries `Entries`.
#define CAE_DEFINE_CUDA_GROUP_MEMBERS(Entries)                                          \
  cae_status group_create(const cae_context* contexts, int32_t count, cae_group* out) { \
    return Entries::group_create(contexts, count, out);                                 \
  }                                                                                     \
  cae_status group_all_reduce_sum(cae_group group, const cae_tensor* tensors,           \
                                  int32_t tensors_per_context, float scale) {           \
    return Entries::group_all_reduce_sum(group, tensors, tensors_per_context, scale);   \
  }                                                                                     \
  void group_destroy(cae_group group) { Entries::group_destroy(group); }                \
  cae_status group_unique_id(size_t* bytes, void* out) {                                \
    return Entries::group_unique_id(bytes, out);                                        \
  }                                                                                     \
  cae_status group_join(cae_context ctx, int32_t rank, int32_t world, const void* id,   \
                        size_t bytes, cae_group* out) {                                 \
    return Entries::group_join(ctx, rank, world, id, bytes, out);                       \
  }                                                                                     \
  cae_status group_join_within(cae_context ctx, int32_t rank, int32_t world,            \
                               const void* id, size_t bytes, int64_t timeout_ms,        \
                               cae_group* out) {                                        \
    return Entries::group_join_within(ctx, rank, world, id, bytes, timeout_ms, out);    \
  }                                                                                     \
  static_assert(true, "CAE_DEFINE_CUDA_GROUP_MEMBERS needs a ';'")
