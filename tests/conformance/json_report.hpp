// The verdict of one run as JSON (--json FILE), for scripts: the sweep reads
// its children's files, tests/mutants reads the sweep's, CI can archive them.
//
//   {"backend": "cpu", "seed": 7, "verdict": "passed"|"failed"|"skipped"|"crashed",
//    "sha256": "..." (of the plugin file as loaded),
//    "checks": 230, "passed": 230, "failed": 0, "notes": 1,
//    "failures": [{"op": "adam_step", "check": "...", "detail": "..."}],
//    "worst": [{"op": "conv2d_forward", "ratio": 0.03, "check": "..."}],
//    "crash": null | {"signal": "SIGSEGV", "op": "...", "check": "..."},
//    "reason": "why it was skipped or could not run"}
//
// "ratio" is the worst error over its bound among the op's checks (<= 1 passes).
// A crash record is written by the crash handler itself (report.cpp).
#pragma once

#include <cstdint>
#include <string>

namespace conformance {

// Writes the results recorded so far (report.hpp) with `verdict`; `reason`
// explains a skip or a failure before any check ran. Atomic: a temporary file
// renamed into place. Returns false (and says why on stderr) when it cannot.
bool write_run_json(const std::string& path, const std::string& backend, uint64_t seed,
                    const std::string& verdict, const std::string& reason = "");

}  // namespace conformance
