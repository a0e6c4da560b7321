// What every backend's linear_loss shares (ABI 1.11): one row's loss and
// residuals by the header's definitions, and the split of a double sum into
// the two floats the op returns, compiled for the host (cpu) and the device
// (the CUDA runtime) from this one definition, so that the two differ only
// in the order they add a block's rows in.
#pragma once

#include <cae/backend.h>

#include <cmath>
#include <cstdint>

#if defined(__CUDACC__)
#define CAE_LINEAR_LOSS_HOST_DEVICE __host__ __device__
#else
#define CAE_LINEAR_LOSS_HOST_DEVICE
#endif

namespace cae_plugin {

// Row i's class from its float target, or -1 when the target is not a class
// index of 0 .. classes - 1 (NaN compares false, so it is -1 too).
CAE_LINEAR_LOSS_HOST_DEVICE inline int32_t linear_loss_class(float target, int64_t classes) {
  if (!(target >= 0.0f && target < static_cast<float>(classes))) return -1;
  const int32_t y = static_cast<int32_t>(target);
  return static_cast<float>(y) == target ? y : -1;
}

// One row's state after a pass over its scores: its loss, and what its
// residuals need. A row without a class has NaN for both.
struct LinearLossRow {
  double loss;
  double top;  // cross-entropy: the largest score
  double sum;  // cross-entropy: sum_c exp(s_c - top)
  int32_t y;
};

// s_c of the header: the score plus the bias, rounded to float.
CAE_LINEAR_LOSS_HOST_DEVICE inline double linear_loss_score(const float* scores, const float* bias,
                                                            int64_t c) {
  return static_cast<double>(scores[c] + bias[c]);
}

// `scores`: the row's k scores (consecutive floats); `bias`: k floats.
CAE_LINEAR_LOSS_HOST_DEVICE inline LinearLossRow linear_loss_row(int32_t kind, const float* scores,
                                                                 const float* bias, int64_t k,
                                                                 int32_t y) {
  LinearLossRow row{0.0, 0.0, 0.0, y};
  if (y < 0) {
    row.loss = nan("");
    return row;
  }
  if (kind == CAE_LINEAR_LOSS_SQUARED_HINGE) {
    for (int64_t c = 0; c < k; ++c) {
      const double t = c == y ? 1.0 : -1.0;
      const double margin = 1.0 - t * linear_loss_score(scores, bias, c);
      if (!(margin <= 0.0)) row.loss += margin * margin;  // a NaN score stays NaN
    }
    return row;
  }
  row.top = linear_loss_score(scores, bias, 0);
  for (int64_t c = 1; c < k; ++c) {
    const double s = linear_loss_score(scores, bias, c);
    row.top = s > row.top ? s : row.top;
  }
  for (int64_t c = 0; c < k; ++c) row.sum += exp(linear_loss_score(scores, bias, c) - row.top);
  row.loss = log(row.sum) - (linear_loss_score(scores, bias, y) - row.top);
  return row;
}

// scale * g_c for class c of a row whose score s_c is `score`.
CAE_LINEAR_LOSS_HOST_DEVICE inline double linear_loss_residual(int32_t kind,
                                                               const LinearLossRow& row,
                                                               double score, int64_t c,
                                                               double scale) {
  if (row.y < 0) return nan("");
  const bool own = c == row.y;
  if (kind == CAE_LINEAR_LOSS_SQUARED_HINGE) {
    const double t = own ? 1.0 : -1.0;
    const double margin = 1.0 - t * score;
    return margin <= 0.0 ? 0.0 : -2.0 * t * margin * scale;
  }
  return (exp(score - row.top) / row.sum - (own ? 1.0 : 0.0)) * scale;
}

// A double as the op returns it: the float nearest it, then the float
// nearest the rest, so that double(hi) + double(lo) keeps about 48 bits.
CAE_LINEAR_LOSS_HOST_DEVICE inline void linear_loss_split(double value, float* out) {
  const float hi = static_cast<float>(value);
  out[0] = hi;
  out[1] = static_cast<float>(value - static_cast<double>(hi));
}

}  // namespace cae_plugin
