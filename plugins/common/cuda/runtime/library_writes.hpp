// Tells compute-sanitizer which bytes a cuBLASLt call wrote.
//
// Why: on sm_90, initcheck does not see the stores of cuBLASLt's TF32 GEMM
// kernels, so every read of a GEMM result by our own kernels was reported as
// an uninitialised read (1,006,700 reports at quick shapes, all in the tap
// sums that read GEMM output; docs/PERF.md). Filling the scratch with NaN
// first (the option poison-scratch=true) changes no result, so every value read was
// written. NVTX's memory API (nvtxMemCudaMarkInitialized) is the documented
// way to tell the tool about writes it cannot see; we mark exactly the
// matrix cuBLASLt was asked to write (m rows of each of n columns, per batch),
// never the padding between columns, so a real read of unwritten bytes is
// still reported.
//
// Cost: nothing unless a tool is injected through NVTX (compute-sanitizer
// --nvtx yes sets NVTX_INJECTION64_PATH); then one NVTX call per GEMM.
#pragma once

#include <cuda_runtime.h>

#include "lt_gemm.hpp"

namespace cae_cuda {

// True when an NVTX tool is attached to this process (checked once).
bool nvtx_tool_attached();

// Marks D (and the bias gradient, for that epilogue) of `call` as written on
// `stream`. Call only after cuBLASLt accepted the call.
void mark_gemm_output_written(cudaStream_t stream, const GemmCall& call);

}  // namespace cae_cuda
