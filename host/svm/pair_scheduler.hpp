// The hand-over between the producer threads (one per backend context: they
// write each pair's kernel into a workspace) and the solver worker threads,
// under a cap on the host memory the pairs may hold.
//
// Every byte is counted from the moment it is reserved: workspaces (in use or
// kept in a pool for the next pair, which saves their page faults), each
// pair's solver allocations while it is queued or solving, and the shared
// diagonal kernel blocks (reserve_block / give_back_block) while any pair
// still needs them. A producer waits while its reservation does not fit,
// dropping pooled workspaces it cannot use first. The progress callback runs
// on the thread that reserves or waits for the workers, one call at a time,
// with counts that only grow: its last call has the final count.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "svm/diagonal_blocks.hpp"
#include "svm/pair_solver.hpp"
#include "svm/pair_workspace.hpp"

namespace cae::svm {

class PairScheduler {
 public:
  using Progress = std::function<void(int done, int total)>;

  struct Job {
    size_t stage = 0;  // which kernel of a run of several (PairRunInput::specs)
    PairRows rows;
    std::unique_ptr<PairWorkspace> workspace;
    uint64_t solver_bytes = 0;  // the solver's own allocations, given back when done
    // SMO: the classes' diagonal blocks; the workspace holds only K(a,b), K(b,a).
    SharedDiagonal diagonal[2];
  };

  // Workspaces are laid out for `solver`, SMO's holding `values`.
  PairScheduler(uint64_t memory_cap, int total_pairs, SolverKind solver, Progress progress,
                KernelValues values = KernelValues::Float32);

  // --- coordinator ---
  // Waits until the job fits under the cap, then gives it a workspace for
  // job.rows.size() rows (pooled or new) and holds job.solver_bytes. Returns
  // false once a worker has failed; throws SvmError if the job can never fit.
  bool reserve(Job& job);
  // Waits until `bytes` more fit under the cap and holds them (for a shared
  // diagonal block). Same failures as reserve().
  bool reserve_block(uint64_t bytes);
  // A shared block was freed. Never call it with the scheduler's lock held
  // (a block's deleter calls it: jobs are destroyed outside the lock).
  void give_back_block(uint64_t bytes);
  void submit(Job job);
  // No more jobs: workers exit when the queue is empty.
  void close();
  // Waits for every submitted pair to finish or for a failure.
  void wait_for_workers();

  // --- workers ---
  // False when there is nothing left to do (closed and empty, or failed).
  bool next(Job& job);
  // The pair is done: its workspace goes back to the pool.
  void complete(PairSolution solution, Job job);
  void fail(std::exception_ptr error);

  // --- results, after the workers have joined ---
  // Frees the pooled workspaces.
  void release_workspaces();
  void rethrow_if_failed();
  bool failed();
  std::vector<PairSolution> take_solutions() { return std::move(solutions_); }
  uint64_t peak_bytes() const { return peak_bytes_; }
  int peak_pairs_in_flight() const { return peak_in_flight_; }

 private:
  void report_progress(std::unique_lock<std::mutex>& lock);
  // Index of the smallest pooled workspace with room for `rows`, or -1.
  int best_pooled(int64_t rows) const;
  void hold(uint64_t bytes);
  // Waits until `need(reuse)` bytes fit, dropping pooled workspaces other than
  // `reuse` (and `reuse` itself when nothing is in flight); returns the index
  // of the pooled workspace to reuse (or -1), or -2 after a failure.
  template <class Need>
  int wait_for_room(std::unique_lock<std::mutex>& lock, int64_t reuse_rows, const Need& need,
                    const std::string& what);

  const uint64_t cap_;
  const int total_;
  const SolverKind solver_;
  Progress progress_;
  const KernelValues values_;

  std::mutex mutex_;
  std::condition_variable changed_;  // for the coordinator: pair done, failure
  std::condition_variable work_;     // for workers: job queued, closed, failure
  std::deque<Job> queue_;
  std::vector<std::unique_ptr<PairWorkspace>> pool_;
  bool closed_ = false;
  std::exception_ptr error_;
  uint64_t held_bytes_ = 0;
  uint64_t peak_bytes_ = 0;
  int submitted_ = 0;
  int in_flight_ = 0;  // reserved and not yet complete
  int peak_in_flight_ = 0;
  // Progress: one report at a time under reporting_, which is taken while
  // mutex_ is not held (mutex_ is taken inside it); the last count reported
  // is read and written under it.
  std::mutex reporting_;
  int reported_ = -1;
  std::vector<PairSolution> solutions_;
};

}  // namespace cae::svm
