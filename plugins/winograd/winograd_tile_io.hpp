// Reading and writing one tile of an image plane, with the border rules:
// input tiles are zero-padded, output tiles drop the pixels past the edge.
// __host__ __device__: the kernels and the unit test's float32 simulation of
// the whole method (winograd_test.cpp) share these, so the test covers the
// partial-tile handling the GPU runs.
#pragma once

#include <cstdint>

#include "winograd_tile_math.hpp"

namespace cae_winograd {

// The 6x6 input patch of the output tile (tile_row, tile_col): rows
// 4 tile_row - 1 ... 4 tile_row + 4 (pad 1), zeros outside the plane.
WINOGRAD_HD void gather_input_tile(const float* plane, int64_t height, int64_t width,
                                   int64_t tile_row, int64_t tile_col, float (&d)[6][6]) {
  const int64_t y0 = tile_row * kTileOut - 1, x0 = tile_col * kTileOut - 1;
WINOGRAD_UNROLL
  for (int r = 0; r < 6; ++r)
WINOGRAD_UNROLL
    for (int s = 0; s < 6; ++s) {
      const int64_t y = y0 + r, x = x0 + s;
      d[r][s] = (y >= 0 && y < height && x >= 0 && x < width) ? plane[y * width + x] : 0.0f;
    }
}

// The 4x4 output-gradient tile, zeros for outputs past the edge.
WINOGRAD_HD void gather_output_tile(const float* plane, int64_t height, int64_t width,
                                    int64_t tile_row, int64_t tile_col, float (&d)[4][4]) {
  const int64_t y0 = tile_row * kTileOut, x0 = tile_col * kTileOut;
WINOGRAD_UNROLL
  for (int r = 0; r < 4; ++r)
WINOGRAD_UNROLL
    for (int s = 0; s < 4; ++s) {
      const int64_t y = y0 + r, x = x0 + s;
      d[r][s] = (y < height && x < width) ? plane[y * width + x] : 0.0f;
    }
}

// Writes y + bias (then ReLU) for the pixels of the tile inside the plane.
WINOGRAD_HD void scatter_output_tile(const float (&y)[4][4], float bias, bool relu, float* plane,
                                     int64_t height, int64_t width, int64_t tile_row,
                                     int64_t tile_col) {
  const int64_t y0 = tile_row * kTileOut, x0 = tile_col * kTileOut;
WINOGRAD_UNROLL
  for (int r = 0; r < 4; ++r)
WINOGRAD_UNROLL
    for (int s = 0; s < 4; ++s) {
      const int64_t row = y0 + r, col = x0 + s;
      if (row < height && col < width) {
        float value = y[r][s] + bias;
        if (relu) value = value > 0.0f ? value : 0.0f;
        plane[row * width + col] = value;
      }
    }
}

// The 3x3 taps of w[o][c], rotated by 180 degrees for the data gradient
// (dx = conv(dy, w') with w'[c][o] = rot180(w[o][c])).
WINOGRAD_HD void load_filter(const float* taps, bool flipped, float (&g)[3][3]) {
WINOGRAD_UNROLL
  for (int r = 0; r < 3; ++r)
WINOGRAD_UNROLL
    for (int s = 0; s < 3; ++s) g[r][s] = flipped ? taps[(2 - r) * 3 + (2 - s)] : taps[r * 3 + s];
}

}  // namespace cae_winograd
