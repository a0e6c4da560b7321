#include "plugin/mpi_bootstrap.hpp"

#include <mpi.h>

#include <cstdint>
#include <exception>
#include <stdexcept>

namespace cae {
namespace {

void check_mpi(int result, const char* call) {
  if (result == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(result, text, &length);
  throw std::runtime_error(std::string(call) + " failed: " + std::string(text, size_t(length)));
}

}  // namespace

MpiBootstrap::MpiBootstrap(int32_t rank, int32_t world) : rank_(rank) {
  int initialized = 0;
  check_mpi(MPI_Initialized(&initialized), "MPI_Initialized");
  if (initialized) throw std::logic_error("MPI is already initialized in this process");
  check_mpi(MPI_Init(nullptr, nullptr), "MPI_Init");
  int mpi_rank = 0, mpi_world = 0;
  check_mpi(MPI_Comm_rank(MPI_COMM_WORLD, &mpi_rank), "MPI_Comm_rank");
  check_mpi(MPI_Comm_size(MPI_COMM_WORLD, &mpi_world), "MPI_Comm_size");
  if (mpi_rank != rank || mpi_world != world) {
    // MPI cannot be used, and the other ranks (if any) are not ours to wait for.
    MPI_Finalize();
    throw std::runtime_error("rank " + std::to_string(rank) + ": MPI sees rank " +
                             std::to_string(mpi_rank) + " of " + std::to_string(mpi_world) +
                             ", the launcher's variables rank " + std::to_string(rank) + " of " +
                             std::to_string(world) +
                             " (start cae with mpirun or srun --mpi=pmix, or give --nccl-id-file)");
  }
}

MpiBootstrap::~MpiBootstrap() {
  if (std::uncaught_exceptions() == 0) MPI_Finalize();
}

std::string MpiBootstrap::broadcast_from_rank0(const std::string& bytes) {
  uint64_t size = rank_ == 0 ? bytes.size() : 0;
  check_mpi(MPI_Bcast(&size, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD), "MPI_Bcast");
  std::string received = rank_ == 0 ? bytes : std::string(size_t(size), '\0');
  if (size > 0) {
    check_mpi(MPI_Bcast(received.data(), int(size), MPI_BYTE, 0, MPI_COMM_WORLD), "MPI_Bcast");
  }
  return received;
}

}  // namespace cae
