// The v4 backend: its table and one exported symbol. The tensor and op members
// are the shared runtime's (plugins/common/cuda/runtime) with v4's
// convolutions (v4_conv.cu); probe, create, destroy and the context-wide
// members are defined here: the runtime's lifecycle (runtime_entry.hpp) with
// v4's precision, priority and options, and a probe and create that ask for a
// Hopper GPU: v4's GEMM kernels exist only as sm_90a code.
#include "backend_table.hpp"
#include "cuda_group_entries.hpp"
#include "cuda_lifecycle_entries.hpp"
#include "graph_interpreter.hpp"
#include "runtime_context.hpp"
#include "runtime_entry.hpp"
#include "v4_graph.hpp"
#include "v4_options.hpp"

namespace cae_v4 {
namespace entry {

using namespace cae_cuda::entry;  // the tensor and op members

namespace {
// Above v3 (50): v4 measures faster at batch 256 and 64 with the accuracy held
// (docs/PERF.md). On a GPU other than Hopper v4 is unavailable
// and v3 stays the default.
constexpr int32_t kProbePriority = 55;

// Convolution operands are rounded to BF16 (FP32 accumulation, FP32 master
// weights and element-wise passes); reductions have a fixed order: deterministic.
using Lifecycle = cae_cuda::RuntimeLifecycle<kProbePriority, CAE_PRECISION_BF16>;
}  // namespace

cae_status probe(cae_probe_result* out) {
  return cae_plugin::guard(nullptr, [&] {
    cae_plugin::cuda::probe_capability(out, kProbePriority, 9, 0, "sm_90a (Hopper)");
  });
}
// The options (bf16-terms, fp32-conv, poison-scratch, graph-capture: v4_options.hpp) become
// the context's Tuning, checked before any device work; then the runtime's
// create, and the device it was given is checked once here, so that no op has
// to ask again: a machine may hold a Hopper beside other GPUs.
cae_status create_with_options(const cae_create_options* options, const cae_option_value* values,
                               int32_t count, cae_context* out) {
  const cae_status made = Lifecycle::create_with_options(options, values, count, out, v4_tuning);
  if (made != CAE_STATUS_OK) return made;
  return cae_plugin::guard(nullptr, [&] {
    try {
      cae_plugin::cuda::require_capability((*out)->device, 9, 0, "sm_90a (Hopper)");
    } catch (...) {
      Lifecycle::destroy(*out);
      *out = nullptr;
      throw;
    }
  });
}
cae_status create(const cae_create_options* options, cae_context* out) {
  return create_with_options(options, nullptr, 0, out);
}
CAE_DEFINE_BACKEND_OPTION_MEMBERS(kV4Options);
CAE_DEFINE_CUDA_LIFECYCLE_MEMBERS_BUT_PROBE(Lifecycle);
CAE_DEFINE_CUDA_LIFECYCLE_MEMORY_STATS(Lifecycle);
CAE_DEFINE_CUDA_GROUP_MEMBERS(cae_cuda::RuntimeGroup);

// Graphs (ABI 1.5): the interpreter's checks and walk through this backend's
// own op members (plugins/common/graph_interpreter.hpp), captured as a CUDA
// graph after the first run and replayed (v4_graph.cpp; option graph-capture).
// With the gradient exchange in the step (ABI 1.6), the recorded exchanges
// overlap the backward pass (v4_graph_exchanges.hpp); the first run's go
// through group_all_reduce_sum.
CAE_DEFINE_GRAPH_OPS_WITH(nullptr, &group_all_reduce_sum);
cae_status graph_compile(cae_context ctx, const cae_graph_desc* desc, cae_graph* out) {
  if (out != nullptr) *out = nullptr;
  return cae_plugin::guard(ctx, [&] { cae_v4::compile_graph(graph_ops(), ctx, desc, out); });
}
cae_status graph_run(cae_context ctx, cae_graph graph, const cae_tensor* bindings,
                     int32_t binding_count, const cae_graph_run_params* params) {
  return cae_plugin::guard(
      ctx, [&] { cae_v4::run_graph(ctx, graph, bindings, binding_count, params); });
}
void graph_destroy(cae_context ctx, cae_graph graph) { cae_plugin::destroy_graph(ctx, graph); }

}  // namespace entry
}  // namespace cae_v4

CAE_DEFINE_BACKEND_ENTRY_WITH(
    cae_v4::entry, "v4", "0.1.0",
    "CUDA, BF16 tensor cores (Hopper wgmma): implicit-GEMM convolutions, im2col fused into the "
    "operand loads",
    CAE_GROUP_MEMBER_SET CAE_PROCESS_GROUP_MEMBER_SET CAE_HOST_MEMORY_MEMBER_SET
        CAE_OPTIONS_MEMBER_SET CAE_GRAPH_MEMBER_SET CAE_SVM_SOLVER_MEMBER_SET
            CAE_KERNEL_REUSE_MEMBER_SET CAE_LINEAR_LOSS_MEMBER_SET CAE_TRANSPOSE_MEMBER_SET
                CAE_NOISE_MEMBER_SET CAE_CHANNEL_CODE_MEMBER_SET);
