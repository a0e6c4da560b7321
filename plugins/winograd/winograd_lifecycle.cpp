// probe, create, destroy and the context-wide members: the lifecycle and
// collectives of a backend on the shared op entries
// (cuda_op_backend_lifecycle.hpp) with winograd's priority, precision and
// declared options.
#include "cuda_op_backend_lifecycle.hpp"
#include "winograd_context.hpp"
#include "winograd_entry_points.hpp"

namespace cae_winograd {
namespace entry {

// Probe priority below v2 (40) and v3 (50): not the default, since it does not
// measure fastest with its accuracy held; selected with --backend winograd.
// FP32 SGEMMs (no TF32), fixed reduction orders, no atomics: deterministic.
using Lifecycle = cae_plugin::cuda::OpBackendLifecycle</*kProbePriority=*/35, CAE_PRECISION_FP32>;

// The all-reduce rewrites the gradients it sums: their versions change
// (device_ops::writing, as for every op's outputs).
CAE_DEFINE_CUDA_OP_BACKEND_LIFECYCLE_MEMBERS(Lifecycle);
// ABI 1.4: the options override the launch table for every layer; a bad
// value fails before any device work.
CAE_DEFINE_CUDA_LIFECYCLE_CREATE_WITH_OPTIONS(Lifecycle, kWinogradOptions, launch_override);

}  // namespace entry
}  // namespace cae_winograd
