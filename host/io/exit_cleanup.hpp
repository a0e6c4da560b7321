#pragma once
// Files that must not outlive the process when a signal ends it: temporaries
// of atomic writes and output locks. A fatal signal (SIGINT, SIGTERM, SIGHUP)
// removes every registered file and exits with 128 + the signal number, the
// shell's convention (130 for Ctrl-C, 143 for SIGTERM). Long loops that can
// stop cleanly (training) install their own handler over this one for a while.
//
// SIGXFSZ (a file-size limit, `ulimit -f`) is ignored instead of killing the
// process: the write that crosses the limit then fails with EFBIG, which the
// writer reports and cleans up like any other write error.

#include <string>

namespace cae {

// Installs the handlers above; call once, at the start of main.
void install_exit_cleanup();

// Registers `path` for removal by a fatal signal until unregistered. Returns
// a slot for unregister (-1 when all slots are taken: the file then stays,
// and the next write of its name removes it, see AtomicFile).
int register_exit_cleanup(const std::string& path);
void unregister_exit_cleanup(int slot);

// Between these two calls a fatal signal is held back (on every thread): the
// steps in between run to their end, and a signal that came meanwhile ends
// the process in resume_fatal_signals() as it would have. For the few
// milliseconds in which a set of files is renamed into place, so that a
// signal leaves the old set or the new one, not half of each. Nestable.
void defer_fatal_signals();
void resume_fatal_signals();

// Holds fatal signals back for as long as it lives.
class FatalSignalsDeferred {
 public:
  FatalSignalsDeferred() { defer_fatal_signals(); }
  ~FatalSignalsDeferred() { resume_fatal_signals(); }
  FatalSignalsDeferred(const FatalSignalsDeferred&) = delete;
  FatalSignalsDeferred& operator=(const FatalSignalsDeferred&) = delete;
};

}  // namespace cae
