// --jobs J without --sweep: one seed's test cases dealt round-robin to J
// child processes (this program with --shard K/J), which run side by side.
// On a GPU most of a run is the host's work (float64 references, random
// data, setting up contexts), so J processes finish it in a fraction of the
// time. Prints every child's check lines in the suite's order, then one
// summary line as a single run does, and records one certification for the
// whole run when every child ran its share of the full check set and passed.
#pragma once

#include "options.hpp"

namespace conformance {

// Exit status as a single run's: 0 passed, 1 failed, 77 skipped.
int run_shards(const Options& options, int argc, char** argv);

}  // namespace conformance
