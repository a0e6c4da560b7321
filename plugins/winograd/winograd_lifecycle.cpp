// probe, create, destroy and the context-wide members: the shared CUDA
// lifecycle (cuda_lifecycle_entries.hpp) with winograd's priority and
// precision, and the shared NCCL collectives.
#include "cuda_group_entries.hpp"
#include "cuda_lifecycle_entries.hpp"
#include "tensor_arguments.hpp"
#include "winograd_context.hpp"
#include "winograd_entry_points.hpp"

namespace cae_winograd {
namespace entry {

namespace {
// Below v2 (40) and v3 (50): not the default, since it does not measure fastest
// with its accuracy held; selected with --backend winograd.
constexpr int32_t kProbePriority = 35;

// FP32 SGEMMs (no TF32), fixed reduction orders, no atomics: deterministic.
using Lifecycle = cae_plugin::cuda::LifecycleEntries<Context, kProbePriority, CAE_PRECISION_FP32,
                                                     /*kDeterministic=*/true,
                                                     cae_plugin::context_argument<Context>>;
}  // namespace

CAE_DEFINE_CUDA_LIFECYCLE_MEMBERS(Lifecycle);
// ABI 1.4: the options override the launch table for every layer; a bad
// value fails before any device work.
CAE_DEFINE_CUDA_LIFECYCLE_CREATE_WITH_OPTIONS(Lifecycle, kWinogradOptions, launch_override);
CAE_DEFINE_CUDA_LIFECYCLE_MEMORY_STATS(Lifecycle);
// The all-reduce rewrites the gradients it sums: their versions change.
using Group = cae_plugin::cuda::GroupEntries<Context, cae_plugin::context_argument<Context>,
                                              mark_written_handle>;
CAE_DEFINE_CUDA_GROUP_MEMBERS(Group);

}  // namespace entry
}  // namespace cae_winograd
