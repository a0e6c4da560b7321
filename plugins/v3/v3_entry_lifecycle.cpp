// probe, create, destroy and the context-wide members of the v3 table.
#include <algorithm>
#include <cstring>

#include "v3_entry.hpp"

namespace cae_v3 {
namespace entry {

using cae_plugin::guard;
using cae_plugin::require;

namespace {
// Above v2 (40): the default backend wherever a CUDA GPU is.
constexpr int32_t kProbePriority = 50;
}  // namespace

cae_status probe(cae_probe_result* out) {
  return guard(nullptr, [&] { cae_plugin::cuda::probe(out, kProbePriority); });
}

cae_status create(const cae_create_options* options, cae_context* out) {
  return guard(nullptr, [&] {
    require(out != nullptr, "create: out is NULL");
    *out = nullptr;
    require(options != nullptr, "create: options is NULL");
    // Read only the members the caller's struct_size covers; the rest keep defaults.
    cae_create_options full{};
    std::memcpy(&full, options, std::min<size_t>(options->struct_size, sizeof full));
    full.struct_size = sizeof full;
    *out = new cae_context_s(&full);
  });
}

void destroy(cae_context ctx) { delete ctx; }  // deferred work is dropped: nobody can read it

const char* last_error(cae_context ctx) { return cae_plugin::last_error_of(ctx); }

cae_status device_info(cae_context ctx, cae_device_info* out) {
  return guard(ctx, [&] {
    // Convolutions use TF32 tensor cores; every reduction has a fixed order
    // and every cuBLASLt algorithm is chosen once per shape: deterministic.
    enter_keeping_deferred(ctx, "device_info").fill_device_info(out, CAE_PRECISION_TF32, true);
  });
}

cae_status synchronize(cae_context ctx) {
  return guard(ctx, [&] { enter(ctx, "synchronize").synchronize(); });
}

cae_status timer_start(cae_context ctx) {
  return guard(ctx, [&] { enter(ctx, "timer_start").start_timer(); });
}

cae_status timer_stop(cae_context ctx, double* elapsed_ms) {
  return guard(ctx, [&] {
    Context& c = enter(ctx, "timer_stop");
    require(elapsed_ms != nullptr, "timer_stop: elapsed_ms is NULL");
    *elapsed_ms = c.stop_timer();
  });
}

cae_status memory_stats(cae_context ctx, uint64_t* in_use_bytes, uint64_t* peak_bytes) {
  return guard(ctx, [&] {
    enter_keeping_deferred(ctx, "memory_stats").memory_stats(in_use_bytes, peak_bytes);
  });
}

}  // namespace entry
}  // namespace cae_v3
