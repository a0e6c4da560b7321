// v1's function table, its one exported symbol, and the lifecycle members.
#include <cstddef>

#include "cuda_support.hpp"
#include "v1_entries.hpp"

namespace v1 {
namespace entry {

using cae_plugin::guard;
using cae_plugin::require;

namespace {
// The host picks the highest available priority by default: v1 ranks above
// naive (and cpu) but below v2 (cuBLAS).
constexpr int32_t kProbePriority = 30;
}  // namespace

cae_status probe(cae_probe_result* out) {
  return guard(nullptr, [&] { cae_plugin::cuda::probe(out, kProbePriority); });
}

cae_status create(const cae_create_options* options, cae_context* out) {
  return guard(nullptr, [&] {
    require(out != nullptr, "create: output pointer is NULL");
    *out = nullptr;
    require(options != nullptr, "create: options is NULL");
    require(options->struct_size >=
                offsetof(cae_create_options, device_index) + sizeof(options->device_index),
            "create: options->struct_size is too small");
    *out = new cae_context_s(options);
  });
}

void destroy(cae_context ctx) {
  // The destructor frees every live tensor and scratch buffer; it does not throw.
  delete ctx;
}

const char* last_error(cae_context ctx) { return cae_plugin::last_error_of(ctx); }

cae_status device_info(cae_context ctx, cae_device_info* out) {
  return guard(
      ctx, [&] { context_of(ctx, "device_info").fill_device_info(out, CAE_PRECISION_FP32, true); });
}

cae_status synchronize(cae_context ctx) {
  return guard(ctx, [&] { context_of(ctx, "synchronize").synchronize(); });
}

cae_status timer_start(cae_context ctx) {
  return guard(ctx, [&] { context_of(ctx, "timer_start").start_timer(); });
}

cae_status timer_stop(cae_context ctx, double* elapsed_ms) {
  return guard(ctx, [&] {
    cae_context_s& c = context_of(ctx, "timer_stop");
    require(elapsed_ms != nullptr, "timer_stop: elapsed_ms is NULL");
    *elapsed_ms = c.stop_timer();
  });
}

cae_status memory_stats(cae_context ctx, uint64_t* in_use_bytes, uint64_t* peak_bytes) {
  return guard(ctx,
               [&] { context_of(ctx, "memory_stats").memory_stats(in_use_bytes, peak_bytes); });
}

}  // namespace entry
}  // namespace v1

CAE_DEFINE_BACKEND_ENTRY(
    v1::entry, "v1", "1.0.0",
    "CUDA, hand-written tiled kernels (shared-memory 3x3 conv, fused bias+ReLU, "
    "deterministic warp-shuffle reductions), fp32");
