// probe, create, destroy and the context-wide members of the v4 table: v3's
// (v3_entry_lifecycle.cpp) with v4's precision and priority, and a probe and
// create that ask for a Hopper GPU: v4's GEMM kernels exist only as sm_90a code.
#include "cuda_group_entries.hpp"
#include "cuda_lifecycle_entries.hpp"
#include "v3_context.hpp"
#include "v3_entry.hpp"
#include "v3_options.hpp"

namespace cae_v3 {
namespace entry {

namespace {
// Above v3 (50): v4 measures faster at batch 256 and 64 with the accuracy held
// (docs/PERF.md). On a GPU other than Hopper v4 is unavailable
// and v3 stays the default.
constexpr int32_t kProbePriority = 55;

// Convolution operands are rounded to BF16 (FP32 accumulation, FP32 master
// weights and element-wise passes); reductions have a fixed order: deterministic.
using Lifecycle =
    cae_plugin::cuda::LifecycleEntries<Context, kProbePriority, CAE_PRECISION_BF16,
                                       /*kDeterministic=*/true, enter, enter_keeping_deferred>;

void record_write(Context& context, cae_tensor t) { context.wrote(t); }
using Group = cae_plugin::cuda::GroupEntries<Context, enter, record_write>;
}  // namespace

cae_status probe(cae_probe_result* out) {
  return cae_plugin::guard(nullptr, [&] {
    cae_plugin::cuda::probe_capability(out, kProbePriority, 9, 0, "sm_90a (Hopper)");
  });
}
// The options (bf16-terms, fp32-conv, poison-scratch: v3_options.hpp) become
// the context's Tuning, checked before any device work; then v3's create, and
// the device it was given is checked once here, so that no op has to ask
// again: a machine may hold a Hopper beside other GPUs.
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
CAE_DEFINE_CUDA_GROUP_MEMBERS(Group);

}  // namespace entry
}  // namespace cae_v3
