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

namespace {

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

cae_backend_table make_table() {
  cae_backend_table t{};
  t.struct_size = sizeof t;
  t.abi_major = CAE_ABI_MAJOR;
  t.abi_minor = CAE_ABI_MINOR;
  t.name = "naive";
  t.version = "1.0.0";
  t.description = "CUDA baseline: one thread per output element, NHWC, plain global loads";
  t.probe = probe;
  t.create = create;
  t.destroy = destroy;
  t.last_error = last_error;
  t.device_info = device_info;
  t.tensor_alloc = entry::tensor_alloc;
  t.tensor_free = entry::tensor_free;
  t.tensor_upload = entry::tensor_upload;
  t.tensor_download = entry::tensor_download;
  t.conv2d_forward = entry::conv2d_forward;
  t.conv2d_backward = entry::conv2d_backward;
  t.relu_forward = entry::relu_forward;
  t.relu_backward = entry::relu_backward;
  t.maxpool2x2_forward = entry::maxpool2x2_forward;
  t.maxpool2x2_backward = entry::maxpool2x2_backward;
  t.upsample2x_forward = entry::upsample2x_forward;
  t.upsample2x_backward = entry::upsample2x_backward;
  t.mse_loss = entry::mse_loss;
  t.sgd_step = entry::sgd_step;
  t.adam_step = entry::adam_step;
  t.kernel_matrix = entry::kernel_matrix;
  t.synchronize = synchronize;
  t.timer_start = timer_start;
  t.timer_stop = timer_stop;
  t.memory_stats = memory_stats;
  return t;
}

}  // namespace
}  // namespace naive

extern "C" CAE_BACKEND_EXPORT const cae_backend_table* cae_backend_get_table(
    uint32_t host_abi_major) {
  if (host_abi_major != CAE_ABI_MAJOR) return nullptr;
  static const cae_backend_table table = naive::make_table();
  return &table;
}
