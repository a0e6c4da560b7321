// Runs of this program in child processes, shared by --sweep (one child per
// seed) and --jobs without a sweep (one seed's test cases split among
// children): each child gets our command line without the options the
// parent owns, its own seed, JSON file and log, and never records a
// certification (the parent records the whole run once). The parent never
// loads the backend itself: a CUDA backend initialised before fork() would
// be unusable in the children.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "options.hpp"

namespace conformance {

struct ChildRun {
  uint64_t seed = 0;
  std::string json_path, log_path;
  std::vector<std::string> extra_args;  // after the seed's, e.g. --shard K/J
};

struct ChildResult {
  uint64_t seed = 0;
  std::string verdict;  // passed, failed, crashed, skipped
  nlohmann::json doc;   // the child's JSON (or one made up for a child that left none)
};

// Our command line without the options a parent owns (--sweep, --jobs,
// --json, --seed, --shard).
std::vector<std::string> child_args(int argc, char** argv);

// The children's environment: the parent's own, plus, when several run side
// by side, OMP_WAIT_POLICY=passive (unless it is set): an OpenMP backend's
// idle threads then sleep instead of spinning, and do not take the cores the
// other children's threads are waiting for (spinning made a sweep of the cpu
// backend at two jobs on two cores three times slower than one job).
class ChildEnvironment {
 public:
  explicit ChildEnvironment(size_t jobs);
  // NULL-terminated, for posix_spawn; valid while this object lives.
  char* const* envp() const { return pointers_.data(); }

 private:
  std::vector<std::string> entries_;
  std::vector<char*> pointers_;
};

// Starts `program args... --seed S --json P --no-record extra_args...` with
// its output in the child's log. Throws std::runtime_error when it cannot.
pid_t spawn_child(const std::string& program, const std::vector<std::string>& args,
                  const ChildRun& child, const ChildEnvironment& env);

// The next child that ended (its waitpid status in `status`), or -1 when a
// signal interrupted the wait; throws std::runtime_error when waitpid fails.
pid_t wait_for_child(int& status);

// What the child left: its JSON, or a verdict made from how it ended
// (`status` from waitpid).
ChildResult collect_child(const ChildRun& child, int status);

// A fresh folder for the children's JSON files and logs
// (/tmp/cae-conformance-KIND-XXXXXX); empty, with a line on stderr, when it
// cannot be made.
std::string make_children_dir(const std::string& kind);

// SIGTERM, SIGINT and SIGHUP call `handler` (which notes the signal): the
// parent stops its children and still prints its summary.
void catch_stop_signals(void (*handler)(int));

// Writes the run's --json document; false (and a line on stderr) when it cannot.
bool write_run_document(const std::string& path, const nlohmann::json& doc);

// Records the verdict of all the children's checks at once, for the contents
// every child loaded (each names them in its JSON: the parent never loads the
// backend itself); a run that does not certify says so instead. `what`
// names the run in the line said when children checked other contents
// ("the sweep", "the run").
void record_children(const Options& options, const std::vector<ChildResult>& done, bool passed,
                     const std::string& what);

// The lines of a child's log that explain a failure.
std::vector<std::string> failure_lines(const std::string& log_path);

}  // namespace conformance
