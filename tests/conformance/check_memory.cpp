// Memory release, measured only by what belongs to this process: its resident
// memory and the backend's own memory_stats (never the device's global free
// memory, which every other program on the GPU moves).
//   - 50 contexts are created, given tensors and some work, and destroyed with
//     their tensors still allocated: neither the process's memory nor a fresh
//     context's memory_stats may grow from one context to the next. (Device
//     memory that destroy leaks is not visible through the ABI: the GPU
//     matrix's compute-sanitizer run, tests/gpu/run-sanitizers.sh, finds it.)
//   - Inside one long-lived context, as in training, tensors are allocated,
//     used and freed again and again: memory_stats and the process's memory
//     must stay flat, so a tensor_free that frees nothing fails.
#include <doctest/doctest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>

#include "checks.hpp"
#include "compare.hpp"
#include "device_data.hpp"
#include "report.hpp"
#include "suite.hpp"

namespace conformance {
namespace {

const char* kOp = "memory";
constexpr int kContexts = 50;
constexpr int kWarmup = 5;  // first contexts may initialise libraries, thread pools, caches

// Resident set size of this process (Linux), or 0 when unknown.
uint64_t resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  uint64_t size_pages = 0, resident_pages = 0;
  if (!(statm >> size_pages >> resident_pages)) return 0;
  return resident_pages * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}

std::string mib(double bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f MiB", bytes / (1024.0 * 1024.0));
  return text;
}

// One context's life: tensors, uploads and an op or two, then destroy
// without freeing the tensors. Returns the bytes of tensors left behind.
struct Lifetime {
  bool ok = false;
  std::string failure;
  uint64_t fresh_in_use = 0;  // memory_stats right after create
  uint64_t left_bytes = 0;
};

cae_status make_tensor(cae_context c, std::vector<int64_t> dims, cae_tensor* out, uint64_t& bytes) {
  const cae_backend_table& t = table();
  cae_status s = t.tensor_alloc(c, static_cast<int32_t>(dims.size()), dims.data(), out);
  if (s != CAE_STATUS_OK) return s;
  int64_t count = 1;
  for (int64_t d : dims) count *= d;
  const std::vector<float> values(static_cast<size_t>(count), 0.25f);
  bytes += values.size() * sizeof(float);
  return t.tensor_upload(c, *out, values.data(), values.size());
}

Lifetime one_context() {
  const cae_backend_table& t = table();
  Lifetime life;
  cae_context c = nullptr;
  if (create_suite_context(&c) != CAE_STATUS_OK || !c) {
    life.failure = std::string("create failed: ") + t.last_error(nullptr);
    return life;
  }
  if (CAE_TABLE_HAS(&t, memory_stats)) {
    uint64_t peak = 0;
    t.memory_stats(c, &life.fresh_in_use, &peak);
  }
  cae_tensor big = nullptr, x = nullptr, w = nullptr, b = nullptr, y = nullptr;
  cae_status s = make_tensor(c, {2048, 1024}, &big, life.left_bytes);
  if (s == CAE_STATUS_OK) s = make_tensor(c, {2, 16, 16, 16}, &x, life.left_bytes);
  if (s == CAE_STATUS_OK) s = make_tensor(c, {32, 16, 3, 3}, &w, life.left_bytes);
  if (s == CAE_STATUS_OK) s = make_tensor(c, {32}, &b, life.left_bytes);
  if (s == CAE_STATUS_OK) s = make_tensor(c, {2, 32, 16, 16}, &y, life.left_bytes);
  // Ops may create workspaces (im2col buffers, library handles): destroy frees those too.
  if (s == CAE_STATUS_OK && CAE_TABLE_HAS(&t, conv2d_forward))
    s = t.conv2d_forward(c, x, w, b, y, 1);
  if (s == CAE_STATUS_OK && CAE_TABLE_HAS(&t, relu_forward)) s = t.relu_forward(c, big, big);
  if (s == CAE_STATUS_OK) s = t.synchronize(c);
  if (s != CAE_STATUS_OK) {
    life.failure = std::string(cae::status_name(s)) + ": " + t.last_error(c);
  } else {
    life.ok = true;
  }
  t.destroy(c);  // every tensor above is still allocated
  return life;
}

void check_contexts() {
  uint64_t rss_start = 0, per_context = 0;
  uint64_t fresh_first = 0, fresh_max = 0;
  for (int i = 0; i < kContexts; ++i) {
    const Lifetime life = one_context();
    if (!life.ok) {
      record(false, kOp, std::to_string(kContexts) + " contexts with live tensors",
             "context " + std::to_string(i + 1) + " failed");
      explain(life.failure);
      return;
    }
    per_context = life.left_bytes;
    if (i == 0) fresh_first = life.fresh_in_use;
    fresh_max = std::max(fresh_max, life.fresh_in_use);
    if (i + 1 == kWarmup) rss_start = resident_bytes();
  }
  record(true, kOp, std::to_string(kContexts) + " contexts with live tensors",
         "created, used, destroyed");

  // Were destroy to leak the tensors, memory would grow by this much.
  const double leak_if_leaking = double(per_context) * (kContexts - kWarmup);
  const double allowed = leak_if_leaking / 2;
  const uint64_t rss_end = resident_bytes();
  if (rss_start == 0 || rss_end == 0) {
    note(kOp, "process memory growth", "not measurable here (/proc/self/statm)");
  } else {
    const double growth = double(rss_end) - double(rss_start);
    record(growth <= allowed, kOp, "process memory growth", mib(growth) + " <= " + mib(allowed));
  }
  if (CAE_TABLE_HAS(&table(), memory_stats)) {
    record(fresh_max == fresh_first, kOp, "memory_stats of each fresh context",
           std::to_string(fresh_first) + " B, at most " + std::to_string(fresh_max) + " B");
  }
}

// One round of what training does to memory: tensors allocated, written,
// used by an op, read back and freed. Returns the bytes it allocated.
uint64_t alloc_use_free() {
  constexpr int64_t kFloats = 1 << 20;  // 4 MiB per tensor
  const std::vector<float> values(kFloats, 0.5f);
  cae::Tensor x = upload_tensor({kFloats}, values);
  cae::Tensor y = ctx().alloc({kFloats});
  if (CAE_TABLE_HAS(&table(), relu_forward)) ctx().relu_forward(x, y);
  cae::Tensor z = upload_tensor({4, 256, 32, 32}, values);  // kFloats, as an activation
  ctx().synchronize();
  return 3 * kFloats * sizeof(float);
}  // x, y and z are freed here

void check_one_context() {
  constexpr int kRounds = 40;
  const std::string what = std::to_string(kRounds) + " alloc/use/free rounds in one context";
  for (int i = 0; i < kWarmup; ++i) alloc_use_free();
  const bool has_stats = ctx().has_memory_stats();
  uint64_t in_use_start = 0, in_use_end = 0, peak = 0;
  if (has_stats) ctx().memory_stats(in_use_start, peak);
  const uint64_t rss_start = resident_bytes();
  uint64_t per_round = 0;
  for (int i = 0; i < kRounds; ++i) per_round = alloc_use_free();
  const uint64_t rss_end = resident_bytes();
  if (has_stats) ctx().memory_stats(in_use_end, peak);
  // Were tensor_free to free nothing, memory would grow by this much.
  const double allowed = double(per_round) * kRounds / 2;
  if (has_stats) {
    const double growth = double(in_use_end) - double(in_use_start);
    record(growth <= allowed, kOp, what + ": memory_stats",
           mib(growth) + " growth <= " + mib(allowed));
    if (growth > allowed) explain("tensor_free does not release what tensor_alloc took?");
  } else {
    note(kOp, what + ": memory_stats", "not provided (optional): process memory only");
  }
  if (rss_start == 0 || rss_end == 0) {
    note(kOp, what + ": process memory", "not measurable here (/proc/self/statm)");
  } else {
    const double growth = double(rss_end) - double(rss_start);
    record(growth <= allowed, kOp, what + ": process memory",
           mib(growth) + " growth <= " + mib(allowed));
  }
}

}  // namespace

void check_memory() {
  SUBCASE("contexts destroyed with live tensors") {
    guarded(kOp, "contexts destroyed with live tensors", check_contexts);
  }
  SUBCASE("alloc and free inside one context") {
    guarded(kOp, "alloc and free inside one context", check_one_context);
  }
}

}  // namespace conformance
