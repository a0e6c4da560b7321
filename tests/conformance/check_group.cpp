// The ABI 1.1 collectives, when the backend provides them: a group over two
// contexts (the suite's device and the next), an all-reduce of three tensors against the
// sum computed here (exact for these values up to one rounding of the scale),
// bit-identical members and reruns, then group_destroy. A backend without the
// members, or with one device, gets a note, never a pass: the host then sums
// through host memory (tested by unit.nn).
#include <doctest/doctest.h>

#include <cmath>
#include <memory>

#include "checks.hpp"
#include "report.hpp"
#include "suite.hpp"

namespace conformance {
namespace {

const char* kOp = "group";

bool has_group_members(const cae_backend_table& t) {
  return CAE_TABLE_HAS(&t, group_create) && CAE_TABLE_HAS(&t, group_all_reduce_sum) &&
         CAE_TABLE_HAS(&t, group_destroy);
}

int32_t probed_devices() {
  cae_probe_result result{};
  result.struct_size = sizeof result;
  return table().probe(&result) == CAE_STATUS_OK ? result.device_count : 0;
}

// Values of member m, tensor i, element e: multiples of 1/8, so every sum
// below is exact in float.
float value(size_t m, size_t i, size_t e) {
  return 0.125f * float((m + 1) * 7 + i * 3) - 0.25f * float(e % 17);
}

void check_all_reduce() {
  const cae_backend_table& t = table();
  // The suite's device and the next one.
  const int32_t other = (suite().device_index + 1) % probed_devices();
  std::unique_ptr<cae::Context> second;
  try {
    second = std::make_unique<cae::Context>(t, other, 0, suite().backend_options);
  } catch (const std::exception& e) {
    note(kOp, "group over 2 devices",
         "skipped: no context on device " + std::to_string(other) + ": " + e.what());
    return;
  }
  cae::Context& first = ctx();
  cae::Context* members[2] = {&first, second.get()};
  const std::vector<int64_t> counts{3, 1000, 1};  // a 1-element tensor, like a bias
  std::vector<std::vector<cae::Tensor>> tensors(2);
  std::vector<cae_tensor> handles;
  auto fill = [&] {
    handles.clear();
    for (size_t m = 0; m < 2; ++m) {
      tensors[m].clear();
      for (size_t i = 0; i < counts.size(); ++i) {
        std::vector<float> host(static_cast<size_t>(counts[i]));
        for (size_t e = 0; e < host.size(); ++e) host[e] = value(m, i, e);
        tensors[m].push_back(members[m]->alloc({counts[i]}));
        tensors[m].back().upload(host);
        handles.push_back(tensors[m].back().handle());
      }
    }
  };
  cae_context contexts[2] = {first.handle(), second->handle()};
  cae_group group = nullptr;
  const cae_status created = t.group_create(contexts, 2, &group);
  if (created == CAE_STATUS_UNSUPPORTED) {
    note(kOp, "group_create", std::string("unsupported here (allowed): ") + t.last_error(nullptr));
    return;
  }
  if (!record(created == CAE_STATUS_OK && group != nullptr, kOp, "group_create", "2 contexts")) {
    explain(t.last_error(nullptr));
    return;
  }
  std::vector<std::vector<float>> previous;
  for (int run = 0; run < 2; ++run) {
    fill();
    const cae_status status = t.group_all_reduce_sum(group, handles.data(), 3, 0.5f);
    if (!record(status == CAE_STATUS_OK, kOp, "group_all_reduce_sum", "3 tensors, scale 0.5")) {
      explain(t.last_error(first.handle()));
      break;
    }
    double worst = 0;
    bool members_equal = true;
    std::vector<std::vector<float>> now;
    for (size_t i = 0; i < counts.size(); ++i) {
      const std::vector<float> a = tensors[0][i].download(), b = tensors[1][i].download();
      members_equal = members_equal && a == b;
      for (size_t e = 0; e < a.size(); ++e) {
        const double expected = 0.5 * (double(value(0, i, e)) + double(value(1, i, e)));
        worst = std::max(worst, std::fabs(double(a[e]) - expected));
      }
      now.push_back(a);
    }
    record(worst == 0.0, kOp, "sum against the host",
           "max |error| " + sci(worst) + " (exact values)");
    record(members_equal, kOp, "every member the same", members_equal ? "bit-identical" : "differ");
    if (run == 1)
      record(now == previous, kOp, "rerun", now == previous ? "bit-identical" : "differs");
    previous = now;
  }
  t.group_destroy(group);
  record(true, kOp, "group_destroy", "returned");
}

}  // namespace

void check_group() {
  if (!has_group_members(table())) {
    note(kOp, "group members", "not provided (optional; the host sums through host memory)");
    return;
  }
  if (probed_devices() < 2) {
    note(kOp, "group over 2 devices",
         "skipped: the backend reports " + std::to_string(probed_devices()) + " device(s)");
    return;
  }
  guarded(kOp, "group_all_reduce_sum", check_all_reduce);
}

}  // namespace conformance
