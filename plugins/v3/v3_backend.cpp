// The v3 backend: its table and one exported symbol. The tensor and op members
// are the shared runtime's (plugins/common/cuda/runtime, with v3's
// convolutions: v3_convolutions.cpp); probe, create, destroy and the
// context-wide members are defined here: the runtime's lifecycle
// (runtime_entry.hpp) with v3's priority, precision and options.
#include "backend_table.hpp"
#include "cuda_group_entries.hpp"
#include "cuda_lifecycle_entries.hpp"
#include "graph_interpreter.hpp"
#include "runtime_context.hpp"
#include "runtime_entry.hpp"
#include "v3_options.hpp"

namespace cae_v3 {
namespace entry {

using namespace cae_cuda::entry;  // the tensor and op members

namespace {
// Above v2 (40): the default backend on a CUDA GPU, except on Hopper, where
// v4 (55) is.
constexpr int32_t kProbePriority = 50;

// Convolutions use TF32 tensor cores; every cuBLASLt algorithm is chosen once
// per shape: deterministic.
using Lifecycle = cae_cuda::RuntimeLifecycle<kProbePriority, CAE_PRECISION_TF32>;
}  // namespace

// destroy drops deferred work: nobody can read it.
CAE_DEFINE_CUDA_LIFECYCLE_MEMBERS(Lifecycle);
// ABI 1.4: the options (v3_options.hpp) become the context's Tuning; a bad
// value fails before any device work.
CAE_DEFINE_CUDA_LIFECYCLE_CREATE_WITH_OPTIONS(Lifecycle, kV3Options, v3_tuning);
CAE_DEFINE_CUDA_LIFECYCLE_MEMORY_STATS(Lifecycle);
// The ABI 1.1 collectives: NCCL over the members' devices, after deferred work.
CAE_DEFINE_CUDA_GROUP_MEMBERS(cae_cuda::RuntimeGroup);

// Graphs (ABI 1.5) run node by node through this backend's own op members
// (plugins/common/graph_interpreter.hpp): the results of the op sequence.
CAE_DEFINE_GRAPH_INTERPRETER_MEMBERS();

}  // namespace entry
}  // namespace cae_v3

CAE_DEFINE_BACKEND_ENTRY_WITH(
    cae_v3::entry, "v3", "1.0.0",
    "CUDA, TF32 tensor cores: channels-last convolutions as cuBLASLt GEMMs with fused epilogues",
    CAE_GROUP_MEMBER_SET CAE_PROCESS_GROUP_MEMBER_SET CAE_HOST_MEMORY_MEMBER_SET
        CAE_OPTIONS_MEMBER_SET CAE_GRAPH_MEMBER_SET CAE_SVM_SOLVER_MEMBER_SET
            CAE_KERNEL_REUSE_MEMBER_SET CAE_LINEAR_LOSS_MEMBER_SET CAE_TRANSPOSE_MEMBER_SET
                CAE_NOISE_MEMBER_SET CAE_CHANNEL_CODE_MEMBER_SET);
