// probe, create, destroy and the context-wide members of the v2 table: the
// lifecycle and collectives of a backend on the shared op entries
// (cuda_op_backend_lifecycle.hpp) with v2's priority and precision.
#include "cuda_op_backend_lifecycle.hpp"
#include "v2_context.hpp"
#include "v2_entry_points.hpp"
#include "v2_tensor.hpp"

namespace cae_v2 {
namespace entry {

// Probe priority: above the cpu and the simpler CUDA backends, below v3 and
// v4. FP32 cuBLAS with fixed reduction orders: deterministic.
using Lifecycle = cae_plugin::cuda::OpBackendLifecycle</*kProbePriority=*/40, CAE_PRECISION_FP32>;

// The collectives are NCCL over the members' devices.
CAE_DEFINE_CUDA_OP_BACKEND_LIFECYCLE_MEMBERS(Lifecycle);
CAE_DEFINE_CUDA_LIFECYCLE_CREATE(Lifecycle);

}  // namespace entry
}  // namespace cae_v2
