// probe, create, destroy and the context-wide members of the v2 table: the
// shared CUDA lifecycle (cuda_lifecycle_entries.hpp) with v2's priority and
// precision.
#include "cuda_group_entries.hpp"
#include "cuda_lifecycle_entries.hpp"
#include "tensor_arguments.hpp"
#include "v2_context.hpp"
#include "v2_tensor.hpp"
#include "v2_entry_points.hpp"

namespace cae_v2 {
namespace entry {

namespace {
// Above the cpu and the simpler CUDA backends, below v3 and v4.
constexpr int32_t kProbePriority = 40;

// FP32 cuBLAS with fixed reduction orders: deterministic.
using Lifecycle = cae_plugin::cuda::LifecycleEntries<Context, kProbePriority, CAE_PRECISION_FP32,
                                                     /*kDeterministic=*/true,
                                                     cae_plugin::context_argument<Context>>;
}  // namespace

CAE_DEFINE_CUDA_LIFECYCLE_MEMBERS(Lifecycle);
CAE_DEFINE_CUDA_LIFECYCLE_CREATE(Lifecycle);
CAE_DEFINE_CUDA_LIFECYCLE_MEMORY_STATS(Lifecycle);
// The ABI 1.1 collectives: NCCL over the members' devices.
using Group = cae_plugin::cuda::GroupEntries<Context, cae_plugin::context_argument<Context>>;
CAE_DEFINE_CUDA_GROUP_MEMBERS(Group);

}  // namespace entry
}  // namespace cae_v2
