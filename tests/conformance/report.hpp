// Readable output, one line per check:
//   conv2d_forward      x[3,1,7,5] w[4,1,3,3] relu        rel_err 2.1e-08 <= 1e-04  ok
// and the tally behind the final summary. A failed check is also reported to
// doctest, so doctest's own exit status and failure details agree with ours.
#pragma once

#include <exception>
#include <functional>
#include <string>

namespace conformance {

struct Tally {
  int passed = 0;
  int failed = 0;
  int notes = 0;  // information only (optional members, allowed "unsupported" answers)
};

Tally& tally();

// Prints the line and counts it; returns `ok`.
bool record(bool ok, const std::string& op, const std::string& what, const std::string& detail);
// An indented line under the previous one (why a check failed).
void explain(const std::string& text);
// A line that is neither a pass nor a failure.
void note(const std::string& op, const std::string& what, const std::string& detail);

// Runs `body`; an exception escaping it (a BackendError from a call that should
// have succeeded, or a bug in the suite) becomes one failed check naming it.
void guarded(const std::string& op, const std::string& what, const std::function<void()>& body);

// The op is in the table (a NULL member means "unsupported", which fails).
bool require_member(const std::string& op, bool present);

// "2.1e-08": short scientific notation for measurements.
std::string sci(double value);
// "0.9", "0.01": parameters as people write them.
std::string num(double value);

}  // namespace conformance
