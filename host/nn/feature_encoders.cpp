#include "nn/feature_encoders.hpp"

#include <algorithm>
#include <cmath>

namespace cae::nn {
namespace {

// One encoded plane: every value through the encoder, one loop per encoder
// so that each is a straight loop the compiler vectorises (the maps are
// large: a 256-channel 32x32 map is 262,144 values per image).
void encode_plane(const float* plane, const float* means, size_t count, const TapCoding& coding,
                  bool negative, float* out) {
  const float alpha = coding.alpha;
  switch (coding.encoder) {
    case TapEncoder::Identity:
      std::copy_n(plane, count, out);
      break;
    case TapEncoder::SoftSplit:
      if (negative) {
        for (size_t i = 0; i < count; ++i) out[i] = std::max(0.0f, -plane[i] - alpha);
      } else {
        for (size_t i = 0; i < count; ++i) out[i] = std::max(0.0f, plane[i] - alpha);
      }
      break;
    case TapEncoder::Triangle:
      for (size_t i = 0; i < count; ++i) out[i] = std::max(0.0f, plane[i] - means[i]);
      break;
  }
}

// Cell i of `size` spans [floor(i*size/cells), ceil((i+1)*size/cells)).
int cell_begin(int i, int size, int cells) { return i * size / cells; }
int cell_end(int i, int size, int cells) { return ((i + 1) * size + cells - 1) / cells; }

template <CellPooling kPooling>
void pool_plane(const float* plane, int size, int cells, float* out) {
  const size_t side = size_t(size);
  for (int cy = 0; cy < cells; ++cy) {
    const int y0 = cell_begin(cy, size, cells), y1 = cell_end(cy, size, cells);
    for (int cx = 0; cx < cells; ++cx) {
      const int x0 = cell_begin(cx, size, cells), x1 = cell_end(cx, size, cells);
      float acc = kPooling == CellPooling::Sum ? 0.0f : -INFINITY;
      for (int y = y0; y < y1; ++y) {
        const float* row = plane + size_t(y) * side;
        for (int x = x0; x < x1; ++x) {
          acc = kPooling == CellPooling::Sum ? acc + row[x] : std::max(acc, row[x]);
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
  float* means = scratch;
  float* encoded = scratch + plane_floats;
  // The triangle code compares each channel with the mean of all channels at
  // the same position: computed once per map, not once per channel.
  if (coding.encoder == TapEncoder::Triangle) {
    std::fill_n(means, plane_floats, 0.0f);
    for (int c = 0; c < channels; ++c) {
      const float* plane = map + size_t(c) * plane_floats;
      for (size_t i = 0; i < plane_floats; ++i) means[i] += plane[i];
    }
    const float scale = 1.0f / float(channels);
    for (size_t i = 0; i < plane_floats; ++i) means[i] *= scale;
  }
  const size_t cell_floats = size_t(cells) * size_t(cells);
  const int halves = coding.encoder == TapEncoder::SoftSplit ? 2 : 1;
  for (int half = 0; half < halves; ++half) {
    for (int c = 0; c < channels; ++c) {
      const float* plane = map + size_t(c) * plane_floats;
      // The identity pools the map itself: no copy.
      const float* source = plane;
      if (coding.encoder != TapEncoder::Identity) {
        encode_plane(plane, means, plane_floats, coding, half == 1, encoded);
        source = encoded;
      }
      float* cell_out = out + (size_t(half) * size_t(channels) + size_t(c)) * cell_floats;
      if (coding.pooling == CellPooling::Sum) {
        pool_plane<CellPooling::Sum>(source, size, cells, cell_out);
      } else {
        pool_plane<CellPooling::Max>(source, size, cells, cell_out);
      }
    }
  }
}

bool pools_before_finishing(const TapCoding& coding) {
  return coding.pooling == CellPooling::Max && coding.encoder != TapEncoder::Identity;
}

std::vector<float> encoder_linear_part(const TapCoding& coding, int channels) {
  const size_t c = size_t(channels);
  const size_t rows = size_t(coding.encoded_channels(channels));
  std::vector<float> weights(rows * c, 0.0f);
  for (size_t o = 0; o < rows; ++o) {
    switch (coding.encoder) {
      case TapEncoder::Identity:
        weights[o * c + o] = 1.0f;
        break;
      case TapEncoder::SoftSplit:  // the negative polarity of channel o - c at o
        weights[o * c + o % c] = o < c ? 1.0f : -1.0f;
        break;
      case TapEncoder::Triangle:
        for (size_t k = 0; k < c; ++k) weights[o * c + k] = (k == o ? 1.0f : 0.0f) - 1.0f / float(c);
        break;
    }
  }
  return weights;
}

std::vector<float> encoder_bias(const TapCoding& coding, int channels) {
  const float bias = coding.encoder == TapEncoder::SoftSplit ? -coding.alpha : 0.0f;
  return std::vector<float>(size_t(coding.encoded_channels(channels)), bias);
}

void finish_encoded(float* values, size_t count, const TapCoding& coding) {
  switch (coding.encoder) {
    case TapEncoder::Identity:
      break;
    case TapEncoder::SoftSplit:
      for (size_t i = 0; i < count; ++i) values[i] = std::max(0.0f, values[i] - coding.alpha);
      break;
    case TapEncoder::Triangle:
      for (size_t i = 0; i < count; ++i) values[i] = std::max(0.0f, values[i]);
      break;
  }
}

void signed_sqrt(float* values, size_t count) {
  for (size_t i = 0; i < count; ++i) values[i] = signed_root(values[i]);
}

}  // namespace cae::nn
