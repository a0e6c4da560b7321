// MPI as the carrier of a group's id, the way NCCL's own examples bootstrap a
// communicator: mpirun (or srun --mpi=pmix) starts the ranks, rank 0 makes the
// id and MPI_Bcast hands it to the others, so no file has to be shared. MPI
// does nothing else here: the exchange of gradients is the backend's (NCCL)
// or the host's file fallback. MPI itself is in lib/cae/libcae-mpi.so
// (mpi_module.h), loaded on the first use; a build without MPI (CAE_HAVE_MPI
// 0) has no MpiBootstrap.
#pragma once

#include <cstdint>
#include <string>

namespace cae {

inline constexpr bool kBuiltWithMpi = CAE_HAVE_MPI != 0;

#if CAE_HAVE_MPI
class MpiBootstrap {
 public:
  // Loads libcae-mpi.so; MPI_Init. Throws std::runtime_error (one line) when
  // the module cannot be loaded, or when MPI's rank and size are not the
  // launcher's `rank` and `world` (e.g. cae started without the launcher that
  // set the variables, which MPI then sees as a single process).
  MpiBootstrap(int32_t rank, int32_t world);
  // MPI_Finalize, which waits for every rank. Not while an exception unwinds:
  // this rank failed, and its exit without MPI_Finalize is what tells the
  // launcher to end the other ranks.
  ~MpiBootstrap();
  MpiBootstrap(const MpiBootstrap&) = delete;
  MpiBootstrap& operator=(const MpiBootstrap&) = delete;

  // Rank 0's `bytes` on every rank (the others' `bytes` are not read).
  std::string broadcast_from_rank0(const std::string& bytes);

 private:
  int32_t rank_;
};
#endif

}  // namespace cae
