// The naive CUDA backend: its table, the exported entry symbol and the
// context lifecycle. The teaching baseline: one thread per output element,
// NHWC activations, plain global loads, no shared memory outside the loss
// reduction, no atomics (so it is deterministic).
#include <cstddef>
#include <string>

#include "naive_entry_points.hpp"

namespace naive {

using cae_plugin::guard;
using cae_plugin::require;

// Preferred over the CPU backend, below the faster CUDA backends.
constexpr int32_t kProbePriority = 20;

cae_context_s& use_context(cae_context ctx, const char* op) {
  require(ctx != nullptr, std::string(op) + ": context is NULL");
  ctx->activate();
  return *ctx;
}

namespace entry {

cae_status probe(cae_probe_result* out) {
  return guard(nullptr, [&] { cae_plugin::cuda::probe(out, kProbePriority); });
}

cae_status create(const cae_create_options* options, cae_context* out) {
  return guard(nullptr, [&] {
    require(out != nullptr, "create: out is NULL");
    *out = nullptr;
    require(options != nullptr, "create: options is NULL");
    require(options->struct_size >=
                offsetof(cae_create_options, device_index) + sizeof(options->device_index),
            "create: options->struct_size " + std::to_string(options->struct_size) +
                " is too small to hold device_index");
    // Without a usable device, say so as UNAVAILABLE with CUDA's reason
    // rather than as the DEVICE_ERROR of the first failing call.
    cae_probe_result availability{};
    availability.struct_size = sizeof availability;
    cae_plugin::cuda::probe(&availability, kProbePriority);
    if (!availability.available) {
      cae_plugin::fail(CAE_STATUS_UNAVAILABLE, std::string("create: ") + availability.reason);
    }
    *out = new cae_context_s(options);
  });
}

// The context's destructor waits for its stream and frees every tensor.
void destroy(cae_context ctx) { delete ctx; }

const char* last_error(cae_context ctx) { return cae_plugin::last_error_of(ctx); }

cae_status device_info(cae_context ctx, cae_device_info* out) {
  return guard(ctx, [&] {
    use_context(ctx, "device_info").fill_device_info(out, CAE_PRECISION_FP32, true);
  });
}

cae_status synchronize(cae_context ctx) {
  return guard(ctx, [&] { use_context(ctx, "synchronize").synchronize(); });
}

cae_status timer_start(cae_context ctx) {
  return guard(ctx, [&] { use_context(ctx, "timer_start").start_timer(); });
}

cae_status timer_stop(cae_context ctx, double* elapsed_ms) {
  return guard(ctx, [&] {
    cae_context_s& context = use_context(ctx, "timer_stop");
    require(elapsed_ms != nullptr, "timer_stop: elapsed_ms is NULL");
    *elapsed_ms = context.stop_timer();
  });
}

cae_status memory_stats(cae_context ctx, uint64_t* in_use_bytes, uint64_t* peak_bytes) {
  return guard(ctx, [&] {
    require(ctx != nullptr, "memory_stats: context is NULL");
    ctx->memory_stats(in_use_bytes, peak_bytes);
  });
}

}  // namespace entry
}  // namespace naive

CAE_DEFINE_BACKEND_ENTRY(naive::entry, "naive", "1.0.0",
                         "CUDA baseline: one thread per output element, NHWC, plain global loads");
