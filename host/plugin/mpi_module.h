/* The C interface of libcae-mpi.so (mpi_module.cpp), the one file of cae that
 * includes mpi.h. cae loads it (mpi_bootstrap.cpp) only when a launcher
 * started several ranks and the group id is to travel through MPI, so no
 * other run of cae loads libmpi and what it pulls in. Each call returns 0 on
 * success, else writes one line to `error` (at most `capacity` bytes). */
#ifndef CAE_MPI_MODULE_H
#define CAE_MPI_MODULE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* MPI_Init; fails when MPI's rank and size are not `rank` and `world`. */
int cae_mpi_start(int32_t rank, int32_t world, char* error, size_t capacity);
typedef int (*cae_mpi_start_fn)(int32_t, int32_t, char*, size_t);

/* MPI_Bcast of `bytes` bytes at `data` from rank 0 to every rank. */
int cae_mpi_broadcast(void* data, uint64_t bytes, char* error, size_t capacity);
typedef int (*cae_mpi_broadcast_fn)(void*, uint64_t, char*, size_t);

/* MPI_Finalize. */
void cae_mpi_finish(void);
typedef void (*cae_mpi_finish_fn)(void);

#ifdef __cplusplus
}
#endif

#endif
