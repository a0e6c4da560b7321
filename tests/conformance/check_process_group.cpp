// The ABI 1.2 groups of processes, when the backend provides them: both
// members or neither, and only with the 1.1 group members; group_unique_id's
// size query and capacity check, a new id per call; a rank outside the world
// refused (at once, not by waiting for ranks that never come); and a group of
// one process: group_join, an all-reduce that is then exactly scale * x, and
// group_destroy; ABI 1.7's group_join_within only beside them, a group of one
// joined within its limit and a limit of 0 refused. Two processes need two devices and a launcher:
// tests/gpu/run-two-processes.sh. A backend without the members gets a note.
#include <doctest/doctest.h>

#include "checks.hpp"
#include "report.hpp"
#include "suite.hpp"

namespace conformance {
namespace {

const char* kOp = "process group";

void check_group_of_one() {
  const cae_backend_table& t = table();
  size_t bytes = 0;
  const cae_status sized = t.group_unique_id(&bytes, nullptr);
  if (!record(sized == CAE_STATUS_OK && bytes > 0, kOp, "group_unique_id size",
              std::to_string(bytes) + " bytes")) {
    explain(t.last_error(nullptr));
    return;
  }
  std::vector<unsigned char> id(bytes), again(bytes);
  size_t small = bytes - 1;
  record(t.group_unique_id(&small, id.data()) == CAE_STATUS_INVALID_ARGUMENT, kOp,
         "group_unique_id capacity", "a buffer one byte short is refused");
  size_t full = bytes, full_again = bytes;
  const bool made = t.group_unique_id(&full, id.data()) == CAE_STATUS_OK &&
                    t.group_unique_id(&full_again, again.data()) == CAE_STATUS_OK &&
                    full == bytes && full_again == bytes;
  if (!record(made, kOp, "group_unique_id", "two ids")) {
    explain(t.last_error(nullptr));
    return;
  }
  record(id != again, kOp, "a new id per call", id != again ? "they differ" : "the same bytes");

  cae_group group = nullptr;
  record(t.group_join(ctx().handle(), 1, 1, id.data(), id.size(), &group) ==
                 CAE_STATUS_INVALID_ARGUMENT &&
             group == nullptr,
         kOp, "group_join rank 1 of 1", "refused");
  const cae_status joined = t.group_join(ctx().handle(), 0, 1, id.data(), id.size(), &group);
  if (!record(joined == CAE_STATUS_OK && group != nullptr, kOp, "group_join", "rank 0 of 1")) {
    explain(t.last_error(nullptr));
    return;
  }
  // Multiples of 1/8 halved: exact in float.
  std::vector<float> a(1000), b{3.0f};
  for (size_t e = 0; e < a.size(); ++e) a[e] = 0.125f * float(e % 29) - 1.5f;
  cae::Tensor ta = ctx().alloc({int64_t(a.size())}), tb = ctx().alloc({1});
  ta.upload(a);
  tb.upload(b);
  cae_tensor handles[2] = {ta.handle(), tb.handle()};
  if (record(t.group_all_reduce_sum(group, handles, 2, 0.5f) == CAE_STATUS_OK, kOp,
             "group_all_reduce_sum", "2 tensors, scale 0.5, one rank")) {
    std::vector<float> got = ta.download(), got_b = tb.download();
    bool exact = got_b[0] == 1.5f;
    for (size_t e = 0; e < a.size(); ++e) exact = exact && got[e] == 0.5f * a[e];
    record(exact, kOp, "one rank's sum is scale * x", exact ? "exact" : "differs");
  } else {
    explain(t.last_error(ctx().handle()));
  }
  t.group_destroy(group);
  record(true, kOp, "group_destroy", "returned");
}

// ABI 1.7's bounded join: a group of one joins at once within its limit,
// and a limit below 1 ms is refused.
void check_bounded_join() {
  const cae_backend_table& t = table();
  std::vector<unsigned char> id(256);
  size_t bytes = id.size();
  if (!record(t.group_unique_id(&bytes, id.data()) == CAE_STATUS_OK, kOp, "group_unique_id",
              "an id for the bounded join")) {
    explain(t.last_error(nullptr));
    return;
  }
  cae_group group = nullptr;
  record(t.group_join_within(ctx().handle(), 0, 1, id.data(), bytes, 0, &group) ==
                 CAE_STATUS_INVALID_ARGUMENT &&
             group == nullptr,
         kOp, "group_join_within timeout 0", "refused");
  const cae_status joined =
      t.group_join_within(ctx().handle(), 0, 1, id.data(), bytes, 60000, &group);
  if (!record(joined == CAE_STATUS_OK && group != nullptr, kOp, "group_join_within",
              "rank 0 of 1 within 60 s")) {
    explain(t.last_error(nullptr));
    return;
  }
  t.group_destroy(group);
}

}  // namespace

void check_process_group() {
  const cae_backend_table& t = table();
  const bool has_id = CAE_TABLE_HAS(&t, group_unique_id), has_join = CAE_TABLE_HAS(&t, group_join);
  const bool has_within = CAE_TABLE_HAS(&t, group_join_within);
  if (!has_id && !has_join && !has_within) {
    note(kOp, "process-group members", "not provided (optional, ABI 1.2)");
    return;
  }
  const bool complete = has_id && has_join && CAE_TABLE_HAS(&t, group_all_reduce_sum) &&
                        CAE_TABLE_HAS(&t, group_destroy);
  if (!record(complete, kOp, "members", complete ? "both, with the 1.1 group members"
                                                 : "incomplete: provide all or none")) {
    return;
  }
  guarded(kOp, "group of one process", check_group_of_one);
  if (CAE_TABLE_HAS(&t, group_join_within)) {
    guarded(kOp, "bounded join (ABI 1.7)", check_bounded_join);
  } else {
    note(kOp, "group_join_within", "not provided (optional, ABI 1.7): the join is bounded by the backend alone");
  }
}

}  // namespace conformance
