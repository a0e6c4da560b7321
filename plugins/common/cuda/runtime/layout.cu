// Conversions between the boundary order (NCHW) and the runtime's storage order (NHWC)
// of 4-D tensors: a batched matrix transpose through 32x32 shared-memory
// tiles, so that both the reads and the writes are coalesced.
#include <algorithm>
#include <string>

#include "runtime_launch.cuh"
#include "runtime_ops.hpp"

namespace cae_cuda {

namespace {

constexpr int kTile = 32;
constexpr int kTileRows = 8;  // threads per tile column; each moves kTile / kTileRows elements

__global__ void __launch_bounds__(kTile* kTileRows)
    transpose_tiles(const float* __restrict__ src, float* __restrict__ dst, int64_t rows,
                    int64_t cols) {
  __shared__ float tile[kTile][kTile + 1];  // +1: no bank conflicts on the transposed read
  begin_after_prior_kernels();
  const int64_t offset = static_cast<int64_t>(blockIdx.z) * rows * cols;
  const int64_t r0 = static_cast<int64_t>(blockIdx.y) * kTile;
  const int64_t c0 = static_cast<int64_t>(blockIdx.x) * kTile;
  for (int k = threadIdx.y; k < kTile; k += kTileRows) {
    const int64_t r = r0 + k, c = c0 + threadIdx.x;
    if (r < rows && c < cols) tile[k][threadIdx.x] = src[offset + r * cols + c];
  }
  __syncthreads();
  for (int k = threadIdx.y; k < kTile; k += kTileRows) {
    const int64_t c = c0 + k, r = r0 + threadIdx.x;
    if (r < rows && c < cols) dst[offset + c * rows + r] = tile[threadIdx.x][k];
  }
}

}  // namespace

void transpose_batched(Context& ctx, const float* src, float* dst, int64_t batch, int64_t rows,
                       int64_t cols) {
  const int64_t row_tiles = (rows + kTile - 1) / kTile, col_tiles = (cols + kTile - 1) / kTile;
  if (row_tiles > 65535 || col_tiles > 0x7fffffffLL) {
    cae_plugin::fail(CAE_STATUS_UNSUPPORTED, "layout conversion: " + std::to_string(rows) + " x " +
                                                 std::to_string(cols) + " matrices are too large");
  }
  for (int64_t first = 0; first < batch; first += 65535) {
    const int64_t count = std::min<int64_t>(65535, batch - first);
    const dim3 grid(static_cast<unsigned>(col_tiles), static_cast<unsigned>(row_tiles),
                    static_cast<unsigned>(count));
    launch(ctx, "transpose_tiles", transpose_tiles, grid, dim3(kTile, kTileRows), 0,
           src + first * rows * cols, dst + first * rows * cols, rows, cols);
  }
}

void boundary_to_stored(Context& ctx, const cae_plugin::Shape& s, const float* src, float* dst) {
  transpose_batched(ctx, src, dst, s[0], s[1], s[2] * s[3]);
}

void stored_to_boundary(Context& ctx, const cae_plugin::Shape& s, const float* src, float* dst) {
  transpose_batched(ctx, src, dst, s[0], s[2] * s[3], s[1]);
}

}  // namespace cae_cuda
