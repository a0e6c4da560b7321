// The naive CUDA backend: its table, the exported entry symbol and the
// context lifecycle (the shared CUDA one of cuda_lifecycle_entries.hpp, but
// for create and memory_stats). The teaching baseline: one thread per output
// element, NHWC activations, plain global loads, no shared memory outside the
// loss reduction, no atomics (so it is deterministic).
#include <cstddef>
#include <string>

#include "cuda_group_entries.hpp"
#include "cuda_lifecycle_entries.hpp"
#include "graph_interpreter.hpp"
#include "naive_entry_points.hpp"
#include "tensor_arguments.hpp"

namespace naive {

using cae_plugin::guard;
using cae_plugin::require;

// Preferred over the CPU backend, below the faster CUDA backends.
constexpr int32_t kProbePriority = 20;

cae_context_s& use_context(cae_context ctx, const char* op) {
  cae_context_s& context = cae_plugin::context_argument(ctx, op);
  context.activate();
  return context;
}

namespace entry {

namespace {
// FP32 and no atomics: deterministic.
using Lifecycle =
    cae_plugin::cuda::LifecycleEntries<cae_context_s, kProbePriority, CAE_PRECISION_FP32,
                                       /*kDeterministic=*/true, use_context>;
}  // namespace

// destroy: the context's destructor waits for its stream and frees every tensor.
CAE_DEFINE_CUDA_LIFECYCLE_MEMBERS(Lifecycle);
// The ABI 1.1 collectives: NCCL over the members' devices.
using Group = cae_plugin::cuda::GroupEntries<cae_context_s, use_context>;
CAE_DEFINE_CUDA_GROUP_MEMBERS(Group);

cae_status create(const cae_create_options* options, cae_context* out) {
  return guard(nullptr, [&] {
    require(out != nullptr, "create: out is NULL");
    *out = nullptr;
    require(options != nullptr, "create: options is NULL");
    require(options->struct_size >=
                offsetof(cae_create_options, device_index) + sizeof(options->device_index),
            "create: options->struct_size " + std::to_string(options->struct_size) +
                " is too small to hold device_index");
    // Without a usable device, say so as UNAVAILABLE with CUDA's reason
    // rather than as the DEVICE_ERROR of the first failing call.
    cae_probe_result availability{};
    availability.struct_size = sizeof availability;
    cae_plugin::cuda::probe(&availability, kProbePriority);
    if (!availability.available) {
      cae_plugin::fail(CAE_STATUS_UNAVAILABLE, std::string("create: ") + availability.reason);
    }
    *out = new cae_context_s(options);
  });
}

// Its own: reads the counters without making the context's device current.
cae_status memory_stats(cae_context ctx, uint64_t* in_use_bytes, uint64_t* peak_bytes) {
  return guard(ctx, [&] {
    cae_plugin::context_argument(ctx, "memory_stats").memory_stats(in_use_bytes, peak_bytes);
  });
}

// Graphs (ABI 1.5) run node by node through this backend's own op members
// (plugins/common/graph_interpreter.hpp): the results of the op sequence.
CAE_DEFINE_GRAPH_INTERPRETER_MEMBERS();

}  // namespace entry
}  // namespace naive

CAE_DEFINE_BACKEND_ENTRY_WITH(naive::entry, "naive", "1.0.0",
                         "CUDA baseline: one thread per output element, NHWC, plain global loads",
    CAE_GROUP_MEMBER_SET CAE_PROCESS_GROUP_MEMBER_SET CAE_HOST_MEMORY_MEMBER_SET CAE_GRAPH_MEMBER_SET);
