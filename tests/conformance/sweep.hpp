// --sweep N: the suite over N seeds, each in a child process (this same
// program with --seed S), J at a time. A child that crashes or hangs cannot
// take the others down, and the parent never loads the backend itself (a CUDA
// backend initialised before fork() would be unusable in the children).
// Prints a line per seed (with its failed checks), the worst error per op with
// the seed that gave it, and a summary; --json writes all of it.
#pragma once

#include "options.hpp"

namespace conformance {

// Exit status: 0 every seed passed, 77 every seed skipped, 1 otherwise.
int run_sweep(const Options& options, int argc, char** argv);

}  // namespace conformance
