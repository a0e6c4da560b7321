// The lifecycle and context-wide members of the cae_backend_table that every
// CUDA backend implements the same way: probe, create, destroy, last_error,
// device_info, synchronize, timer_start, timer_stop, memory_stats and the
// ABI 1.3 host_alloc / host_free.
//
// Why: naive, v1, v2 and v3 repeated these bodies word for word, differing
// only in their probe priority, their precision and how they reach their
// context from a handle. A backend keeps its own member functions (the
// table is filled from them by name, see backend_table.hpp), each a one-line
// call to the matching member here, defined by the macros at the end of this
// file; a backend whose member does something else (an extra check, a
// different message) simply defines its own instead.
//
// Plugins only. Include after the backend's context header: `Context` is the
// backend's `struct cae_context_s`, which derives from CudaContextBase.
#pragma once

#include <cae/backend.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "backend_options.hpp"
#include "cuda_support.hpp"

namespace cae_plugin {
namespace cuda {

// How a backend's entry points reach its context from a handle passed to
// `op`: rejects NULL (naming op) and does whatever the backend needs before
// an op runs (making the device current, flushing deferred work).
template <typename Context>
using ContextAccess = Context& (*)(cae_context ctx, const char* op);

// kEnter serves the members that act on the stream (synchronize and the
// timer); kInspect those that only read state (device_info, memory_stats),
// which a backend with deferred work may want to leave queued.
template <typename Context, int32_t kProbePriority, cae_precision kPrecision, bool kDeterministic,
          ContextAccess<Context> kEnter, ContextAccess<Context> kInspect = kEnter>
struct LifecycleEntries {
  static_assert(std::is_base_of<CudaContextBase, Context>::value,
                "a CUDA backend's context derives from CudaContextBase");
  static_assert(std::is_same<Context*, cae_context>::value,
                "Context is the backend's struct cae_context_s");

  static cae_status probe(cae_probe_result* out) {
    return guard(nullptr, [&] { cuda::probe(out, kProbePriority); });
  }

  // Copies the options the caller's struct_size covers over defaults, so a
  // caller built against an older (shorter) cae_create_options still works.
  // `settings` go to the context's constructor after the options (a backend
  // with declared options passes what it made of them).
  template <typename... Settings>
  static cae_status create(const cae_create_options* options, cae_context* out,
                           const Settings&... settings) {
    return guard(nullptr, [&] {
      require(out != nullptr, "create: out is NULL");
      *out = nullptr;
      require(options != nullptr, "create: options is NULL");
      // Read only the members the caller's struct_size covers; the rest keep defaults.
      cae_create_options full{};
      std::memcpy(&full, options, std::min<size_t>(options->struct_size, sizeof full));
      full.struct_size = sizeof full;
      *out = new Context(&full, settings...);
    });
  }

  // ABI 1.4: create with the chosen option values, which `settings_from`
  // (throwing cae_plugin::Error naming a bad one) turns into what the
  // context's constructor takes, before any device work.
  template <typename Settings>
  static cae_status create_with_options(const cae_create_options* options,
                                        const cae_option_value* values, int32_t count,
                                        cae_context* out,
                                        Settings (*settings_from)(const cae_option_value*,
                                                                  int32_t)) {
    if (out) *out = nullptr;
    Settings settings{};
    const cae_status checked = guard(nullptr, [&] { settings = settings_from(values, count); });
    if (checked != CAE_STATUS_OK) return checked;
    return create(options, out, settings);
  }

  // The context's destructor releases everything it owns; it does not throw.
  static void destroy(cae_context ctx) { delete as_context(ctx); }

  static const char* last_error(cae_context ctx) { return last_error_of(as_context(ctx)); }

  static cae_status device_info(cae_context ctx, cae_device_info* out) {
    return guard(as_context(ctx), [&] {
      kInspect(ctx, "device_info").fill_device_info(out, kPrecision, kDeterministic);
    });
  }

  static cae_status synchronize(cae_context ctx) {
    return guard(as_context(ctx), [&] { kEnter(ctx, "synchronize").synchronize(); });
  }

  static cae_status timer_start(cae_context ctx) {
    return guard(as_context(ctx), [&] { kEnter(ctx, "timer_start").start_timer(); });
  }

  static cae_status timer_stop(cae_context ctx, double* elapsed_ms) {
    return guard(as_context(ctx), [&] {
      Context& context = kEnter(ctx, "timer_stop");
      require(elapsed_ms != nullptr, "timer_stop: elapsed_ms is NULL");
      *elapsed_ms = context.stop_timer();
    });
  }

  static cae_status memory_stats(cae_context ctx, uint64_t* in_use_bytes, uint64_t* peak_bytes) {
    return guard(as_context(ctx),
                 [&] { kInspect(ctx, "memory_stats").memory_stats(in_use_bytes, peak_bytes); });
  }

  // ABI 1.3: page-locked host memory, owned by the context (freed with it).
  static cae_status host_alloc(cae_context ctx, size_t bytes, void** out) {
    return guard(as_context(ctx), [&] {
      if (out) *out = nullptr;  // NULL on every failure, a missing context included
      Context& context = kInspect(ctx, "host_alloc");
      require(out != nullptr, "host_alloc: out is NULL");
      *out = context.host_memory.allocate(bytes);
    });
  }

  static void host_free(cae_context ctx, void* ptr) {
    if (ctx) as_context(ctx)->host_memory.release(ptr);
  }

 private:
  // The handle as the (complete) context type, so that the conversion to
  // ContextBase* and the delete happen where the backend's type is known.
  static Context* as_context(cae_context ctx) { return ctx; }
};

}  // namespace cuda
}  // namespace cae_plugin

// In a backend's entry namespace: defines the members every CUDA backend
// shares (probe, destroy, last_error, device_info, synchronize, timer_start,
// timer_stop, host_alloc, host_free) as calls to `entries`, a LifecycleEntries specialization. Real
// functions with the ABI's signatures, so CAE_DEFINE_BACKEND_ENTRY can take
// them by name.
#define CAE_DEFINE_CUDA_LIFECYCLE_MEMBERS(entries)                        \
  cae_status probe(cae_probe_result* out) { return entries::probe(out); } \
  CAE_DEFINE_CUDA_LIFECYCLE_MEMBERS_BUT_PROBE(entries)

// The same without probe, for a backend whose probe asks more (v4: Hopper).
#define CAE_DEFINE_CUDA_LIFECYCLE_MEMBERS_BUT_PROBE(entries)                    \
  void destroy(cae_context ctx) { entries::destroy(ctx); }                      \
  const char* last_error(cae_context ctx) { return entries::last_error(ctx); }  \
  cae_status device_info(cae_context ctx, cae_device_info* out) {               \
    return entries::device_info(ctx, out);                                      \
  }                                                                             \
  cae_status synchronize(cae_context ctx) { return entries::synchronize(ctx); } \
  cae_status timer_start(cae_context ctx) { return entries::timer_start(ctx); } \
  cae_status timer_stop(cae_context ctx, double* elapsed_ms) {                  \
    return entries::timer_stop(ctx, elapsed_ms);                                \
  }                                                                             \
  cae_status host_alloc(cae_context ctx, size_t bytes, void** out) {            \
    return entries::host_alloc(ctx, bytes, out);                                \
  }                                                                             \
  void host_free(cae_context ctx, void* ptr) { entries::host_free(ctx, ptr); }  \
  static_assert(true, "CAE_DEFINE_CUDA_LIFECYCLE_MEMBERS(_BUT_PROBE) needs a ';'")

// The same for create, for backends that take the shared one (options copied
// as far as struct_size reaches).
#define CAE_DEFINE_CUDA_LIFECYCLE_CREATE(entries)                          \
  cae_status create(const cae_create_options* options, cae_context* out) { \
    return entries::create(options, out);                                  \
  }                                                                        \
  static_assert(true, "CAE_DEFINE_CUDA_LIFECYCLE_CREATE needs a ';'")

// create, create_with_options and the other ABI 1.4 option members, for a
// backend that declares `specs` (an array of cae_plugin::OptionSpec) and whose
// context takes what `settings_from` makes of the chosen values.
#define CAE_DEFINE_CUDA_LIFECYCLE_CREATE_WITH_OPTIONS(entries, specs, settings_from)               \
  cae_status create_with_options(const cae_create_options* options,                               \
                                 const cae_option_value* values, int32_t count, cae_context* out) { \
    return entries::create_with_options(options, values, count, out, settings_from);              \
  }                                                                                                \
  cae_status create(const cae_create_options* options, cae_context* out) {                        \
    return create_with_options(options, nullptr, 0, out);                                          \
  }                                                                                                \
  CAE_DEFINE_BACKEND_OPTION_MEMBERS(specs)

// The same for memory_stats, for backends that take the shared one.
#define CAE_DEFINE_CUDA_LIFECYCLE_MEMORY_STATS(entries)                                    \
  cae_status memory_stats(cae_context ctx, uint64_t* in_use_bytes, uint64_t* peak_bytes) { \
    return entries::memory_stats(ctx, in_use_bytes, peak_bytes);                           \
  }                                                                                        \
  static_assert(true, "CAE_DEFINE_CUDA_LIFECYCLE_MEMORY_STATS needs a ';'")
