// OpenBLAS's working buffers under a memory limit. Each thread that runs a
// GEMM takes one of OpenBLAS's buffers, mapping a new one the first time
// more threads than ever before run GEMMs at once; when that mapping fails
// (an address-space limit, `ulimit -v`), OpenBLAS 0.3 retries it forever,
// and the process hangs instead of failing. So before a parallel region
// that calls gemm(), this reserves room: a region that would need more
// buffers than exist checks, by mapping and unmapping that much address
// space itself, that they can be had, and otherwise fails with
// CAE_STATUS_OUT_OF_MEMORY. Buffers, once mapped, are reused by OpenBLAS and
// need no check.
#pragma once

#include <cstdint>

namespace cae_cpu {

// Holds room for `threads` concurrent GEMMs for as long as it lives
// (nested or concurrent guards add up). Throws cae_plugin::Error
// (CAE_STATUS_OUT_OF_MEMORY) naming `op` when the room is not there.
class BlasBuffers {
 public:
  BlasBuffers(int threads, const char* op);
  ~BlasBuffers();
  BlasBuffers(const BlasBuffers&) = delete;
  BlasBuffers& operator=(const BlasBuffers&) = delete;

 private:
  int threads_;
};

}  // namespace cae_cpu
