// The per-run scalars of a captured graph (v4_graph.cpp): a small kernel,
// queued before each run, writes them into device memory that the captured
// update kernels read. A kernel, not a copy from host memory: its arguments
// are taken when it is queued, so the host may queue the next run at once.
#pragma once

#include <vector>

#include "runtime_context.hpp"

namespace cae_v4 {

// device[i] = values[i], queued on ctx.stream.
void write_run_scalars(cae_cuda::Context& ctx, float* device, const std::vector<float>& values);

}  // namespace cae_v4
