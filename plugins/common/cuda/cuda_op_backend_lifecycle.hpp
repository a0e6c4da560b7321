// The lifecycle and the collectives of a backend on the shared op entries
// (cuda_op_entries.hpp): the shared CUDA lifecycle and NCCL collectives
// (cuda_lifecycle_entries.hpp, cuda_group_entries.hpp), reaching the context
// through cae_plugin::context_argument and recording the all-reduce's
// rewrites with the backend's own write hook (device_ops::writing).
//
// Why: v2 and winograd filled these members the same way but for their probe
// priority, their precision and their create (winograd declares options);
// the one other difference, what the all-reduce records of the tensors it
// rewrites, is the hook every op entry already calls for its outputs.
//
// Plugins only. Where the macro is used, the backend's context and tensor
// types are complete; in the backend's entry namespace:
//   using Lifecycle = cae_plugin::cuda::OpBackendLifecycle<priority, precision>;
//   CAE_DEFINE_CUDA_OP_BACKEND_LIFECYCLE_MEMBERS(Lifecycle);
//   CAE_DEFINE_CUDA_LIFECYCLE_CREATE(Lifecycle);  // or ..._CREATE_WITH_OPTIONS
#pragma once

#include <cae/backend.h>

#include <cstdint>

#include "cuda_device_ops.hpp"
#include "cuda_group_entries.hpp"
#include "cuda_lifecycle_entries.hpp"
#include "tensor_arguments.hpp"

namespace cae_plugin {
namespace cuda {

// The all-reduce rewrites the tensors it sums (queued on the stream, after
// the sum): the same record an op makes of its outputs.
inline void record_group_write(device_ops::Context& ctx, cae_tensor t) {
  device_ops::writing(ctx, t);
}

// Every reduction of these backends has a fixed order: deterministic.
template <int32_t kProbePriority, cae_precision kPrecision>
using OpBackendLifecycle =
    LifecycleEntries<device_ops::Context, kProbePriority, kPrecision, /*kDeterministic=*/true,
                     context_argument<device_ops::Context>>;

using OpBackendGroup =
    GroupEntries<device_ops::Context, context_argument<device_ops::Context>, record_group_write>;

}  // namespace cuda
}  // namespace cae_plugin

// In a backend's entry namespace: every lifecycle member from `lifecycle` (an
// OpBackendLifecycle) but create, which the backend defines with
// CAE_DEFINE_CUDA_LIFECYCLE_CREATE or CAE_DEFINE_CUDA_LIFECYCLE_CREATE_WITH_OPTIONS,
// and the collectives of ABI 1.1 and 1.2.
#define CAE_DEFINE_CUDA_OP_BACKEND_LIFECYCLE_MEMBERS(lifecycle) \
  CAE_DEFINE_CUDA_LIFECYCLE_MEMBERS(lifecycle);                 \
  CAE_DEFINE_CUDA_LIFECYCLE_MEMORY_STATS(lifecycle);            \
  CAE_DEFINE_CUDA_GROUP_MEMBERS(cae_plugin::cuda::OpBackendGroup)
