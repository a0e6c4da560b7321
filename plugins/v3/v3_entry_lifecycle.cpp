// probe, create, destroy and the context-wide members of the v3 table: the
// shared CUDA lifecycle (cuda_lifecycle_entries.hpp) with v3's priority and
// precision, and its two ways in: synchronize and the timer flush deferred
// work first (enter); device_info and memory_stats leave it queued
// (enter_keeping_deferred).
#include "cuda_group_entries.hpp"
#include "cuda_lifecycle_entries.hpp"
#include "v3_context.hpp"
#include "v3_entry.hpp"
#include "v3_options.hpp"

namespace cae_v3 {
namespace entry {

namespace {
// Above v2 (40): the default backend on a CUDA GPU, except on Hopper, where
// v4 (55) is.
constexpr int32_t kProbePriority = 50;

// Convolutions use TF32 tensor cores; every reduction has a fixed order
// and every cuBLASLt algorithm is chosen once per shape: deterministic.
using Lifecycle =
    cae_plugin::cuda::LifecycleEntries<Context, kProbePriority, CAE_PRECISION_TF32,
                                       /*kDeterministic=*/true, enter, enter_keeping_deferred>;

// The all-reduce rewrites its tensors: new versions, so no buffer derived from
// the old contents is reused.
void record_write(Context& context, cae_tensor t) { context.wrote(t); }
using Group = cae_plugin::cuda::GroupEntries<Context, enter, record_write>;
}  // namespace

// destroy drops deferred work: nobody can read it.
CAE_DEFINE_CUDA_LIFECYCLE_MEMBERS(Lifecycle);
// ABI 1.4: the options (v3_options.hpp) become the context's Tuning; a bad
// value fails before any device work.
CAE_DEFINE_CUDA_LIFECYCLE_CREATE_WITH_OPTIONS(Lifecycle, kV3Options, v3_tuning);
CAE_DEFINE_CUDA_LIFECYCLE_MEMORY_STATS(Lifecycle);
// The ABI 1.1 collectives: NCCL over the members' devices, after deferred work.
CAE_DEFINE_CUDA_GROUP_MEMBERS(Group);

}  // namespace entry
}  // namespace cae_v3
