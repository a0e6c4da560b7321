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
  WINOGRAD_UNROLLED_LOOP(k, 36) {
    const int64_t y = y0 + k / 6, x = x0 + k % 6;
    d[k / 6][k % 6] = (y >= 0 && y < height && x >= 0 && x < width) ? plane[y * width + x] : 0.0f;
  }
}

// The 4x4 output-gradient tile, zeros for outputs past the edge.
WINOGRAD_HD void gather_output_tile(const float* plane, int64_t height, int64_t width,
                                    int64_t tile_row, int64_t tile_col, float (&d)[4][4]) {
  const int64_t y0 = tile_row * kTileOut, x0 = tile_col * kTileOut;
  WINOGRAD_UNROLLED_LOOP(k, 16) {
    const int64_t y = y0 + k / 4, x = x0 + k % 4;
    d[k / 4][k % 4] = (y < height && x < width) ? plane[y * width + x] : 0.0f;
  }
}

// Writes y + bias (then ReLU) for the pixels of the tile inside the plane.
WINOGRAD_HD void scatter_output_tile(const float (&y)[4][4], float bias, bool relu, float* plane,
                                     int64_t height, int64_t width, int64_t tile_row,
                                     int64_t tile_col) {
  const int64_t y0 = tile_row * kTileOut, x0 = tile_col * kTileOut;
  WINOGRAD_UNROLLED_LOOP(k, 16) {
    const int64_t row = y0 + k / 4, col = x0 + k % 4;
    if (row < height && col < width) {
      float value = y[k / 4][k % 4] + bias;
      if (relu) value = value > 0.0f ? value : 0.0f;
      plane[row * width + col] = value;
    }
  }
}

// The 3x3 taps of w[o][c], rotated by 180 degrees for the data gradient
// (dx = conv(dy, w') with w'[c][o] = rot180(w[o][c])).
WINOGRAD_HD void load_filter(const float* taps, bool flipped, float (&g)[3][3]) {
  WINOGRAD_UNROLLED_LOOP(k, 9) { g[k / 3][k % 3] = flipped ? taps[8 - k] : taps[k]; }
}

}  // namespace cae_winograd
