// The backend's description of itself: its table, probe and device_info
// (including out-structs shorter than the backend's, as an older host passes),
// last_error, synchronize, and the optional timer and memory_stats members.
#include <doctest/doctest.h>

#include <cmath>
#include <cstddef>
#include <cstring>

#include "checks.hpp"
#include "compare.hpp"
#include "plugin/registry.hpp"
#include "report.hpp"
#include "suite.hpp"

namespace conformance {
namespace {

const char* kOp = "backend";

bool non_empty(const char* text) { return text != nullptr && text[0] != '\0'; }

bool nul_terminated(const char* text, size_t size) {
  return std::memchr(text, '\0', size) != nullptr;
}

// Bytes [from, to) of `bytes` all still equal `fill`.
bool untouched(const unsigned char* bytes, size_t from, size_t to, unsigned char fill) {
  for (size_t i = from; i < to; ++i) {
    if (bytes[i] != fill) return false;
  }
  return true;
}

void check_table() {
  const cae_backend_table& t = table();
  const bool ok = t.struct_size >= CAE_BACKEND_TABLE_MIN_SIZE && t.abi_major == CAE_ABI_MAJOR &&
                  non_empty(t.name) && non_empty(t.version) && non_empty(t.description);
  record(ok, kOp, "table",
         std::string("abi ") + std::to_string(t.abi_major) + "." + std::to_string(t.abi_minor) +
             ", " + std::to_string(t.struct_size) + " bytes, version " +
             (t.version ? t.version : "NULL"));
  if (!ok)
    explain("needs struct_size >= the 1.0 minimum, abi_major 1, name, version and description");
  // A minor this suite knows has one exact table size: a mismatch means the
  // backend was built against another header, or misstates its minor.
  const std::string mismatch = cae::table_size_mismatch(t);
  record(mismatch.empty(), kOp, "table size of its minor",
         mismatch.empty() ? "struct_size fits ABI 1." + std::to_string(t.abi_minor)
                          : "struct_size " + std::to_string(t.struct_size) + " for 1." +
                                std::to_string(t.abi_minor));
  if (!mismatch.empty()) explain(mismatch);
}

void check_probe() {
  cae_probe_result result{};
  result.struct_size = sizeof result;
  const cae_status status = table().probe(&result);
  const bool ok = status == CAE_STATUS_OK && result.available == 1 && result.device_count >= 1 &&
                  nul_terminated(result.reason, sizeof result.reason);
  record(ok, kOp, "probe",
         "available " + std::to_string(result.available) + ", " +
             std::to_string(result.device_count) + " device(s), priority " +
             std::to_string(result.priority));
}

// An older host passes a shorter struct: the backend must not write past it.
void check_short_out_structs() {
  constexpr unsigned char kFill = 0xA5;
  {
    unsigned char bytes[sizeof(cae_probe_result)];
    std::memset(bytes, kFill, sizeof bytes);
    auto* result = reinterpret_cast<cae_probe_result*>(bytes);
    const size_t short_size = offsetof(cae_probe_result, reason);
    result->struct_size = static_cast<uint32_t>(short_size);
    const cae_status status = table().probe(result);
    const bool ok = status == CAE_STATUS_OK && result->struct_size == short_size &&
                    untouched(bytes, short_size, sizeof bytes, kFill);
    record(ok, kOp, "probe with a shorter struct_size",
           ok ? "nothing written past it" : "wrote past struct_size");
  }
  {
    unsigned char bytes[sizeof(cae_device_info)];
    std::memset(bytes, kFill, sizeof bytes);
    auto* info = reinterpret_cast<cae_device_info*>(bytes);
    const size_t short_size = offsetof(cae_device_info, compute_units);
    info->struct_size = static_cast<uint32_t>(short_size);
    const cae_status status = table().device_info(ctx().handle(), info);
    const bool ok = status == CAE_STATUS_OK && info->struct_size == short_size &&
                    untouched(bytes, short_size, sizeof bytes, kFill);
    record(ok, kOp, "device_info with a shorter struct_size",
           ok ? "nothing written past it" : "wrote past struct_size");
  }
}

void check_device_info() {
  cae_device_info info{};
  info.struct_size = sizeof info;
  const cae_status status = table().device_info(ctx().handle(), &info);
  const bool ok = status == CAE_STATUS_OK && info.precision >= CAE_PRECISION_FP32 &&
                  info.precision <= CAE_PRECISION_FP16 &&
                  (info.deterministic == 0 || info.deterministic == 1) &&
                  nul_terminated(info.device_name, sizeof info.device_name) &&
                  non_empty(info.device_name) && info.memory_free_bytes <= info.memory_total_bytes;
  record(ok, kOp, "device_info", ok ? std::string("\"") + info.device_name + "\"" : "invalid");
  if (!ok) explain("needs a known precision, deterministic 0 or 1, a device name, free <= total");
}

void check_last_error() {
  const bool ok = table().last_error(nullptr) != nullptr && table().last_error(ctx().handle());
  record(ok, kOp, "last_error", ok ? "never NULL" : "returned NULL");
}

void check_synchronize() {
  const cae_status status = table().synchronize(ctx().handle());
  record(status == CAE_STATUS_OK, kOp, "synchronize",
         std::string("returned ") + cae::status_name(status));
}

// Some work for the timer to measure.
void some_work() {
  std::vector<float> values(1 << 16, 0.5f);
  cae::Tensor x = upload_tensor({1 << 16}, values);
  cae::Tensor y = ctx().alloc({1 << 16});
  ctx().relu_forward(x, y);
}

void check_timer() {
  if (!ctx().has_timer()) {
    note(kOp, "timer_start / timer_stop", "not provided (optional)");
    return;
  }
  ctx().timer_start();
  if (CAE_TABLE_HAS(&table(), relu_forward)) some_work();
  const double ms = ctx().timer_stop_ms();
  record(std::isfinite(ms) && ms >= 0.0, kOp, "timer_start / timer_stop", sci(ms) + " ms");
}

void check_memory_stats() {
  if (!ctx().has_memory_stats()) {
    note(kOp, "memory_stats", "not provided (optional)");
    return;
  }
  uint64_t before = 0, peak = 0, during = 0, after = 0;
  ctx().memory_stats(before, peak);
  {
    cae::Tensor t = ctx().alloc({1 << 20});
    upload(t, std::vector<float>(1 << 20, 1.0f));
    ctx().memory_stats(during, peak);
  }
  uint64_t peak_after = 0;
  ctx().memory_stats(after, peak_after);
  // Only consistency is required: a caching allocator may keep freed memory,
  // so the figures need not return to where they were.
  const bool ok = during >= before && after <= during && peak >= during && peak_after >= peak;
  record(ok, kOp, "memory_stats",
         std::to_string(before) + " B, " + std::to_string(during) + " B with a 4 MiB tensor");
  if (!ok) {
    explain("in use before/with/after a 4 MiB tensor: " + std::to_string(before) + "/" +
            std::to_string(during) + "/" + std::to_string(after) + ", peak " +
            std::to_string(peak_after));
  }
}

}  // namespace

void check_backend() {
  SUBCASE("table") { guarded(kOp, "table", check_table); }
  SUBCASE("probe") { guarded(kOp, "probe", check_probe); }
  SUBCASE("device_info") { guarded(kOp, "device_info", check_device_info); }
  SUBCASE("short out-structs") { guarded(kOp, "short out-structs", check_short_out_structs); }
  SUBCASE("last_error") { guarded(kOp, "last_error", check_last_error); }
  SUBCASE("synchronize") { guarded(kOp, "synchronize", check_synchronize); }
  SUBCASE("timer") { guarded(kOp, "timer_start / timer_stop", check_timer); }
  SUBCASE("memory_stats") { guarded(kOp, "memory_stats", check_memory_stats); }
}

}  // namespace conformance
