// Weights rearranged for lowering a convolution on its OUTPUT side.
//
// im2col expands the channels of one side of a convolution K·K-fold. The
// usual choice is the input (columns of x, C·K·K rows). When the layer has
// fewer output channels than input channels, expanding the output side
// instead (O·K·K rows) moves far less memory:
//
//   forward:         y_n  = col2im_O(taps [OKK,C] · x_n [C,HW])
//   backward data:   dx_n = taps^T · im2col_O(dy_n)
//   backward weight: G    = sum_n x_n [C,HW] · im2col_O(dy_n)^T   -> [C,OKK]
//
// where taps[(o·K + i)·K + j, c] = w[o, c, K-1-i, K-1-j] (the kernel flipped:
// a tap that reads input row h + i - K/2 for output h is the one that sends
// input h to output h - i + K/2), and dw is G read back through the same
// mapping. im2col_O / col2im_O are im2col / col2im on O channels.
#pragma once

#include <cstdint>

namespace cae_cpu {

// taps [O·K·K, C] from weights w [O, C, K, K].
void make_tap_weights(const float* w, int64_t O, int64_t C, int64_t K, float* taps) noexcept;

// w [O, C, K, K] from a gradient g [C, O·K·K] in the transposed tap layout.
void tap_gradient_to_weights(const float* g, int64_t O, int64_t C, int64_t K, float* w) noexcept;

}  // namespace cae_cpu
