#include "library_writes.hpp"

#include <nvtx3/nvToolsExtMemCudaRt.h>

#include <cstdlib>
#include <vector>

namespace cae_cuda {

namespace {

using Ranges = std::vector<nvtxMemVirtualRangeDesc_t>;

// `columns` runs of `rows` floats, `ld` floats apart, for each of `batch`
// matrices `batch_stride` floats apart. One range per matrix when the
// columns are contiguous; otherwise one per column, so the gaps stay unmarked.
void add_matrix(Ranges& out, const float* first, int64_t rows, int64_t columns, int64_t ld,
                int32_t batch, int64_t batch_stride) {
  for (int32_t b = 0; b < batch; ++b) {
    const float* base = first + b * batch_stride;
    if (ld == rows) {
      out.push_back({static_cast<size_t>(rows * columns) * sizeof(float), base});
      continue;
    }
    for (int64_t j = 0; j < columns; ++j) {
      out.push_back({static_cast<size_t>(rows) * sizeof(float), base + j * ld});
    }
  }
}

nvtxDomainHandle_t domain() {
  static const nvtxDomainHandle_t handle = nvtxDomainCreateA("cae");
  return handle;
}

}  // namespace

bool nvtx_tool_attached() {
  static const bool attached = std::getenv("NVTX_INJECTION64_PATH") != nullptr;
  return attached;
}

void mark_gemm_output_written(cudaStream_t stream, const GemmCall& call) {
  if (!nvtx_tool_attached()) return;
  Ranges ranges;
  add_matrix(ranges, call.d, call.m, call.n, call.ldd, call.batch, call.batch_stride_d);
  if (call.epilogue == Epilogue::bias_grad && call.bias_grad) {
    add_matrix(ranges, call.bias_grad, call.n, 1, call.n, call.batch, call.bias_batch_stride);
  }
  nvtxMemMarkInitializedBatch_t batch{};
  batch.extCompatID = NVTX_EXT_COMPATID_MEM;
  batch.structSize = sizeof batch;
  batch.regionType = NVTX_MEM_TYPE_VIRTUAL_ADDRESS;
  batch.regionDescCount = ranges.size();
  batch.regionDescElementSize = sizeof(nvtxMemVirtualRangeDesc_t);
  batch.regionDescElements = ranges.data();
  nvtxMemCudaMarkInitialized(domain(), stream, 0, &batch);
}

}  // namespace cae_cuda
