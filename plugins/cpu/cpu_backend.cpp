// The CPU backend's entry point and function table, and the members that
// manage a context's life: probe, create, destroy, errors, synchronisation
// and measurement.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <memory>
#include <string>

#include "cpu_blas.hpp"
#include "cpu_context.hpp"
#include "cpu_ops.hpp"
#include "graph_interpreter.hpp"

namespace cae_cpu {

using cae_plugin::guard;
using cae_plugin::require;

namespace {

// Above nothing, below every GPU backend: the host picks the CPU only when no
// accelerator is usable.
constexpr int32_t kProbePriority = 10;

// Logical devices: device_index 0..kLogicalDevices-1 are independent
// contexts on the same CPU, so the multi-device paths of the host (one
// context per device, collectives) run and are tested on any machine.
constexpr int32_t kLogicalDevices = 4;

// device_index from the options when the caller's struct covers it.
int32_t requested_device(const cae_create_options& options) {
  constexpr size_t end = offsetof(cae_create_options, device_index) + sizeof(int32_t);
  return options.struct_size >= end ? options.device_index : 0;
}

// thread_count from the options, reading only what the caller's struct_size
// says it filled (an older host may pass a shorter struct).
int32_t requested_threads(const cae_create_options& options) {
  constexpr size_t end = offsetof(cae_create_options, thread_count) + sizeof(int32_t);
  return options.struct_size >= end ? options.thread_count : 0;
}

}  // namespace

cae_status probe(cae_probe_result* out) {
  return guard(nullptr, [&] {
    require(out != nullptr, "probe: result pointer is NULL");
    cae_probe_result result{};
    result.struct_size = sizeof result;
    result.available = 1;  // a CPU is always there
    result.priority = kProbePriority;
    result.device_count = kLogicalDevices;
    cae_plugin::write_out_struct(out, result);
  });
}

cae_status create(const cae_create_options* options, cae_context* out) {
  return guard(nullptr, [&] {
    require(out != nullptr, "create: output context pointer is NULL");
    *out = nullptr;
    require(options != nullptr, "create: options is NULL");
    require(options->struct_size >= sizeof(uint32_t), "create: options->struct_size is 0");
    const int32_t device = requested_device(*options);
    require(device >= 0 && device < kLogicalDevices,
            "create: device_index " + std::to_string(device) + " is out of range: the cpu backend has " +
                std::to_string(kLogicalDevices) + " logical devices (0.." +
                std::to_string(kLogicalDevices - 1) + ")");
    const int32_t threads = requested_threads(*options);
    require(threads >= 0, "create: thread_count must be >= 0 (0: OpenMP's default), got " +
                              std::to_string(threads));
    auto ctx = std::make_unique<cae_context_s>();
    ctx->threads = threads > 0 ? threads : std::max(1, omp_get_max_threads());
    use_single_threaded_blas();
    *out = ctx.release();
  });
}

void destroy(cae_context ctx) { delete ctx; }  // frees every tensor still allocated

const char* last_error(cae_context ctx) { return cae_plugin::last_error_of(ctx); }

// Every op has finished when it returns: there is nothing to wait for.
cae_status synchronize(cae_context ctx) {
  return guard(ctx, [&] { context_arg(ctx, "synchronize"); });
}

cae_status timer_start(cae_context ctx) {
  return guard(ctx, [&] {
    cae_context_s& c = context_arg(ctx, "timer_start");
    c.timer_begin = std::chrono::steady_clock::now();
    c.timer_running = true;
  });
}

cae_status timer_stop(cae_context ctx, double* elapsed_ms) {
  return guard(ctx, [&] {
    cae_context_s& c = context_arg(ctx, "timer_stop");
    require(elapsed_ms != nullptr, "timer_stop: elapsed_ms is NULL");
    require(c.timer_running, "timer_stop: timer_start was not called");
    const auto elapsed = std::chrono::steady_clock::now() - c.timer_begin;
    *elapsed_ms = std::chrono::duration<double, std::milli>(elapsed).count();
    c.timer_running = false;
  });
}

cae_status memory_stats(cae_context ctx, uint64_t* in_use_bytes, uint64_t* peak_bytes) {
  return guard(ctx, [&] {
    cae_context_s& c = context_arg(ctx, "memory_stats");
    require(in_use_bytes && peak_bytes, "memory_stats: NULL output pointer");
    *in_use_bytes = c.bytes_in_use;
    *peak_bytes = c.peak_bytes;
  });
}

// Graphs (ABI 1.5) run node by node through this backend's own ops: the
// same results as the op sequence, bit for bit; their gradient exchange
// (ABI 1.6 all_reduce_sum nodes) through its group_all_reduce_sum.
CAE_DEFINE_GRAPH_INTERPRETER_MEMBERS_WITH_EXCHANGES();

}  // namespace cae_cpu

CAE_DEFINE_BACKEND_ENTRY_WITH(
    cae_cpu, "cpu", "1.0.0",
    "reference CPU backend: float32, OpenMP threads, im2col + OpenBLAS SGEMM",
    CAE_GROUP_MEMBER_SET CAE_GRAPH_MEMBER_SET CAE_SVM_SOLVER_MEMBER_SET CAE_KERNEL_REUSE_MEMBER_SET
        CAE_LINEAR_LOSS_MEMBER_SET CAE_TRANSPOSE_MEMBER_SET CAE_NOISE_MEMBER_SET
            CAE_CHANNEL_CODE_MEMBER_SET);
