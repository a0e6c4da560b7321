// How the processes of one training run find one another (docs/distributed.md):
// rank 0 makes the group's id and either writes it atomically to a file every
// rank names (the others wait for that file) or, when MPI started the ranks,
// broadcasts it through MPI (mpi_bootstrap.hpp); then all join. The id is the
// backend's (NCCL's unique id, ABI 1.2) or, for a backend without the 1.2
// members, a random name for the host's file exchange (file_process_group).
#pragma once

#include <chrono>
#include <memory>
#include <string>

#include "plugin/process_group.hpp"

namespace cae {

struct Rendezvous {
  std::string id_file;  // empty when the id travels through MPI
  int32_t rank = 0;
  int32_t world = 1;
  std::chrono::milliseconds timeout{300000};  // for the id file, the join and each exchange
  bool through_mpi = false;
  // Through MPI, where the host's file exchange (a backend without
  // process-group members) keeps its files: a folder every rank sees.
  std::string exchange_folder;
};

// Joins the group for `context` (one per process). Through MPI, MPI_Init and
// MPI_Finalize bracket the join. Rank 0 refuses an id file
// that already exists (another run's, or a crashed one's: the others might
// read it) and removes its own once every rank has joined. Throws
// std::runtime_error (one line) when the id does not come in time or names
// another backend, BackendError when the backend fails to join.
std::unique_ptr<ProcessGroup> join_process_group(Context& context, const Rendezvous& rendezvous);

}  // namespace cae
