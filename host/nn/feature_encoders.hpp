// Encoders and pooling that turn one dense encoder map into features: the
// ingredients the single-layer feature-learning papers found to matter more
// than how the filters were learned (Coates, Lee & Ng 2011; Coates & Ng 2011):
// a soft threshold with a polarity split or a "triangle" code at every
// position, then sums over a few large regions (quadrants) instead of a max
// over small ones, and a signed square root before the classifier.
#pragma once

#include <cmath>
#include <cstddef>
#include <vector>

namespace cae::nn {

enum class TapEncoder {
  Identity,   // the map's values as they are
  SoftSplit,  // [max(0, x - alpha), max(0, -x - alpha)]: twice the channels
  Triangle,   // max(0, x_c - mean over channels of x) at each position
};

enum class CellPooling {
  Max,  // the largest value of each cell
  Sum,  // the sum of each cell
};

struct TapCoding {
  TapEncoder encoder = TapEncoder::Identity;
  float alpha = 0.0f;  // SoftSplit's threshold
  CellPooling pooling = CellPooling::Max;

  bool plain() const { return encoder == TapEncoder::Identity && pooling == CellPooling::Max; }
  int encoded_channels(int channels) const {
    return encoder == TapEncoder::SoftSplit ? 2 * channels : channels;
  }
};

// A [channels, size, size] map encoded at every position, then pooled into
// [coding.encoded_channels(channels), cells, cells]: cell i spans
// [floor(i*size/cells), ceil((i+1)*size/cells)) on each axis (the windows of
// the recipes' max pools, which touch or overlap by one where size is no
// multiple of cells). SoftSplit's second half holds the negative polarity of
// channel c at channel channels + c. `scratch` holds 2*size*size floats (the
// triangle's per-position means and one encoded plane).
void encode_and_pool(const float* map, int channels, int size, const TapCoding& coding, int cells,
                     float* out, float* scratch);

// Max pooling commutes with an encoder that is a linear map of the channels
// at each position followed by a non-decreasing function of each value: the
// triangle code is (x_c - mean of x) then max(0, v); the polarity split
// stacks x and -x, then max(0, v - alpha). The max over a cell of f(v) is
// f(max over the cell of v), so a backend can apply the linear part as a 1x1
// convolution and max-pool its result like a plain map: only the pooled
// cells cross the bus, and the host finishes them with f. Sum pooling does
// not commute (a sum of max(0, v) is not max(0, a sum)).
bool pools_before_finishing(const TapCoding& coding);

// The encoder's linear part as 1x1 convolution weights, row-major
// [coding.encoded_channels(channels), channels]: the identity, I - 1/channels
// for the triangle code, [I; -I] for the polarity split.
std::vector<float> encoder_linear_part(const TapCoding& coding, int channels);

// The bias that makes the whole encoder max(0, linear part + bias): -alpha
// on every channel of the polarity split, 0 for the triangle code.
std::vector<float> encoder_bias(const TapCoding& coding, int channels);

// The encoder's non-decreasing part, in place on `count` values of the
// linear part's (pooled) output.
void finish_encoded(float* values, size_t count, const TapCoding& coding);

// f = sign(f) * sqrt(|f|), of one value.
inline float signed_root(float f) { return std::copysign(std::sqrt(std::fabs(f)), f); }

// In place on `count` values: f = sign(f) * sqrt(|f|).
void signed_sqrt(float* values, size_t count);

}  // namespace cae::nn
