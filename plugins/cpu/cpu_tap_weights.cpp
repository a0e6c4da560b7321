#include "cpu_tap_weights.hpp"

namespace cae_cpu {
namespace {

// Index in w [O,C,K,K] of tap (i, j) of (o, c): the flipped kernel position.
inline int64_t flipped(int64_t o, int64_t c, int64_t i, int64_t j, int64_t C, int64_t K) {
  return ((o * C + c) * K + (K - 1 - i)) * K + (K - 1 - j);
}

}  // namespace

void make_tap_weights(const float* w, int64_t O, int64_t C, int64_t K, float* taps) noexcept {
  for (int64_t o = 0; o < O; ++o) {
    for (int64_t i = 0; i < K; ++i) {
      for (int64_t j = 0; j < K; ++j) {
        float* row = taps + ((o * K + i) * K + j) * C;
        for (int64_t c = 0; c < C; ++c) row[c] = w[flipped(o, c, i, j, C, K)];
      }
    }
  }
}

void tap_gradient_to_weights(const float* g, int64_t O, int64_t C, int64_t K, float* w) noexcept {
  const int64_t taps = O * K * K;
  for (int64_t c = 0; c < C; ++c) {
    const float* row = g + c * taps;
    for (int64_t o = 0; o < O; ++o) {
      for (int64_t i = 0; i < K; ++i) {
        for (int64_t j = 0; j < K; ++j) w[flipped(o, c, i, j, C, K)] = row[(o * K + i) * K + j];
      }
    }
  }
}

}  // namespace cae_cpu
