#include "cpu_im2col.hpp"

#include <algorithm>
#include <cstring>

namespace cae_cpu {
namespace {

// For kernel column kw, the output columns ow whose input column
// ow + kw - pad lies inside the image: [begin, end).
struct ValidColumns {
  int64_t offset, begin, end;
};

ValidColumns valid_columns(const ConvGeometry& g, int64_t kw) {
  const int64_t offset = kw - g.pad();
  return {offset, std::max<int64_t>(0, -offset), std::min(g.width, g.width - offset)};
}

}  // namespace

void im2col(const ConvGeometry& g, const float* image, float* columns) noexcept {
  const int64_t H = g.height, W = g.width, K = g.kernel;
  float* row = columns;
  for (int64_t c = 0; c < g.channels; ++c) {
    const float* plane = image + c * g.plane();
    for (int64_t kh = 0; kh < K; ++kh) {
      for (int64_t kw = 0; kw < K; ++kw, row += g.plane()) {
        const ValidColumns cols = valid_columns(g, kw);
        for (int64_t oh = 0; oh < H; ++oh) {
          float* out = row + oh * W;
          const int64_t ih = oh + kh - g.pad();
          if (ih < 0 || ih >= H || cols.begin >= cols.end) {
            std::fill(out, out + W, 0.0f);
            continue;
          }
          const float* in = plane + ih * W + cols.begin + cols.offset;
          std::fill(out, out + cols.begin, 0.0f);
          std::memcpy(out + cols.begin, in,
                      static_cast<size_t>(cols.end - cols.begin) * sizeof(float));
          std::fill(out + cols.end, out + W, 0.0f);
        }
      }
    }
  }
}

void col2im(const ConvGeometry& g, const float* columns, float* image) noexcept {
  const int64_t H = g.height, W = g.width, K = g.kernel;
  std::fill(image, image + g.channels * g.plane(), 0.0f);
  const float* row = columns;
  for (int64_t c = 0; c < g.channels; ++c) {
    float* plane = image + c * g.plane();
    for (int64_t kh = 0; kh < K; ++kh) {
      for (int64_t kw = 0; kw < K; ++kw, row += g.plane()) {
        const ValidColumns cols = valid_columns(g, kw);
        for (int64_t oh = 0; oh < H; ++oh) {
          const int64_t ih = oh + kh - g.pad();
          if (ih < 0 || ih >= H) continue;
          const float* in = row + oh * W;
          float* out = plane + ih * W;
          for (int64_t ow = cols.begin; ow < cols.end; ++ow) out[ow + cols.offset] += in[ow];
        }
      }
    }
  }
}

}  // namespace cae_cpu
