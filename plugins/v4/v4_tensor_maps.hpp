// Tensor maps (the copy engine's descriptions of a tensor and of the box it
// fetches) for v4's TMA GEMM (v4_tma_igemm.cuh). Both read BF16 data with the
// 128-byte swizzle, boxes 64 values (128 bytes) wide along the innermost
// dimension. Built on the host for each launch: a few microseconds of the
// driver's time, no device work.
#pragma once

#include <cuda.h>

#include <cstdint>

namespace cae_v4 {

// An NHWC tensor [images][H][W][channels], boxes of 64 channels x W x
// box_rows x box_images.
CUtensorMap image_box_map(const void* data, int64_t images, int64_t H, int64_t W, int64_t channels,
                          int box_rows, int box_images);

// A row-major matrix [rows][row_length], boxes of 64 x box_rows.
CUtensorMap matrix_box_map(const void* data, int64_t rows, int64_t row_length, int box_rows);

}  // namespace cae_v4
