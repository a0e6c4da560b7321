#include "nn/feature_encoders.hpp"

#include <algorithm>
#include <cmath>

namespace cae::nn {
namespace {

// The encoded value of x for output half `negative` of channel c.
float encode(float x, float mean, const TapCoding& coding, bool negative) {
  switch (coding.encoder) {
    case TapEncoder::Identity:
      return x;
    case TapEncoder::SoftSplit:
      return std::max(0.0f, (negative ? -x : x) - coding.alpha);
    case TapEncoder::Triangle:
      return std::max(0.0f, x - mean);
  }
  return x;
}

// One plane of one encoded channel into its cells.
void pool_plane(const float* plane, const float* means, int size, const TapCoding& coding,
                bool negative, int cells, float* out) {
  const size_t side = size_t(size);
  for (int cy = 0; cy < cells; ++cy) {
    const int y0 = cy * size / cells, y1 = ((cy + 1) * size + cells - 1) / cells;
    for (int cx = 0; cx < cells; ++cx) {
      const int x0 = cx * size / cells, x1 = ((cx + 1) * size + cells - 1) / cells;
      float acc = coding.pooling == CellPooling::Sum ? 0.0f : -INFINITY;
      for (int y = y0; y < y1; ++y) {
        for (int x = x0; x < x1; ++x) {
          const size_t at = size_t(y) * side + size_t(x);
          const float value = encode(plane[at], means[at], coding, negative);
          acc = coding.pooling == CellPooling::Sum ? acc + value : std::max(acc, value);
        }
      }
      *out++ = acc;
    }
  }
}

}  // namespace

void encode_and_pool(const float* map, int channels, int size, const TapCoding& coding, int cells,
                     float* out, float* scratch) {
  const size_t plane_floats = size_t(size) * size_t(size);
  // The triangle code compares each channel with the mean of all channels at
  // the same position: computed once per map, not once per channel.
  std::fill_n(scratch, plane_floats, 0.0f);
  if (coding.encoder == TapEncoder::Triangle) {
    for (int c = 0; c < channels; ++c) {
      const float* plane = map + size_t(c) * plane_floats;
      for (size_t i = 0; i < plane_floats; ++i) scratch[i] += plane[i];
    }
    for (size_t i = 0; i < plane_floats; ++i) scratch[i] /= float(channels);
  }
  const size_t cell_floats = size_t(cells) * size_t(cells);
  for (int c = 0; c < channels; ++c) {
    const float* plane = map + size_t(c) * plane_floats;
    pool_plane(plane, scratch, size, coding, false, cells, out + size_t(c) * cell_floats);
    if (coding.encoder == TapEncoder::SoftSplit) {
      pool_plane(plane, scratch, size, coding, true, cells,
                 out + size_t(channels + c) * cell_floats);
    }
  }
}

void signed_sqrt(float* values, size_t count) {
  for (size_t i = 0; i < count; ++i) values[i] = std::copysign(std::sqrt(std::fabs(values[i])), values[i]);
}

}  // namespace cae::nn
