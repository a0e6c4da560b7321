// libcae-mpi.so: MPI's part of the bootstrap (mpi_module.h), in a module of
// its own so that only a run that needs MPI loads libmpi.
#include "plugin/mpi_module.h"

#include <mpi.h>

#include <algorithm>
#include <cstring>
#include <string>

namespace {

int failed(const std::string& message, char* error, size_t capacity) {
  if (capacity > 0) {
    const size_t n = std::min(message.size(), capacity - 1);
    std::memcpy(error, message.data(), n);
    error[n] = '\0';
  }
  return 1;
}

int failed_call(int result, const char* call, char* error, size_t capacity) {
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(result, text, &length);
  return failed(std::string(call) + " failed: " + std::string(text, size_t(length)), error,
                capacity);
}

}  // namespace

extern "C" {

__attribute__((visibility("default"))) int cae_mpi_start(int32_t rank, int32_t world, char* error,
                                                         size_t capacity) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (initialized) return failed("MPI is already initialized in this process", error, capacity);
  int result = MPI_Init(nullptr, nullptr);
  if (result != MPI_SUCCESS) return failed_call(result, "MPI_Init", error, capacity);
  int mpi_rank = 0, mpi_world = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &mpi_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &mpi_world);
  if (mpi_rank != rank || mpi_world != world) {
    // MPI cannot carry the id, and the other ranks (if any) are not ours to wait for.
    MPI_Finalize();
    return failed("MPI sees rank " + std::to_string(mpi_rank) + " of " +
                      std::to_string(mpi_world) + ", the launcher's variables rank " +
                      std::to_string(rank) + " of " + std::to_string(world) +
                      " (start cae with mpirun or srun --mpi=pmix, or give --nccl-id-file)",
                  error, capacity);
  }
  return 0;
}

__attribute__((visibility("default"))) int cae_mpi_broadcast(void* data, uint64_t bytes,
                                                             char* error, size_t capacity) {
  // MPI counts in int: a longer message goes in pieces.
  auto* at = static_cast<unsigned char*>(data);
  while (bytes > 0) {
    const int piece = int(std::min<uint64_t>(bytes, 1u << 30));
    const int result = MPI_Bcast(at, piece, MPI_BYTE, 0, MPI_COMM_WORLD);
    if (result != MPI_SUCCESS) return failed_call(result, "MPI_Bcast", error, capacity);
    at += piece;
    bytes -= uint64_t(piece);
  }
  return 0;
}

__attribute__((visibility("default"))) void cae_mpi_finish(void) { MPI_Finalize(); }

}  // extern "C"
