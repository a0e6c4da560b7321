// channel_code (ABI 1.13): the feature encoders' linear part at each pixel.
// Tensors are stored in the boundary order (NCHW), so a pixel's channels lie
// `pixels` floats apart: each thread takes whole images and runs over an
// image's channels plane by plane (the pixels' sums side by side in one
// buffer), which reads memory in order instead of striding per pixel.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "cpu_context.hpp"
#include "cpu_ops.hpp"
#include "cpu_parallel.hpp"
#include "op_shapes.hpp"

namespace cae_cpu {

cae_status channel_code(cae_context ctx, cae_tensor x, cae_tensor y, int32_t code, float bias,
                        int32_t relu) {
  return cae_plugin::guard(ctx, [&] {
    const char* op = "channel_code";
    cae_context_s& c = context_arg(ctx, op);
    const cae_tensor_s& X = tensor_arg(c, x, op, "x");
    cae_tensor_s& Y = tensor_arg(c, y, op, "y");
    const cae_plugin::ChannelCodeDims d =
        cae_plugin::check_channel_code(X.shape, Y.shape, x == y, code, bias);
    const float* in = X.data();
    float* out = Y.data();
    const int64_t plane = d.pixels, image = d.channels * plane;
    const auto finish = [&](float v) { return relu && !(v > 0.0f) ? 0.0f : v; };
    parallel_for(c.threads, d.images, [&](int64_t n) {
      const float* x_n = in + n * image;
      if (code == CAE_CHANNEL_CODE_SPLIT) {
        float* positive = out + n * 2 * image;
        float* negative = positive + image;
        for (int64_t i = 0; i < image; ++i) {
          positive[i] = finish(x_n[i] + bias);
          negative[i] = finish(-x_n[i] + bias);
        }
        return;
      }
      std::vector<float> mean(size_t(plane), 0.0f);
      for (int64_t k = 0; k < d.channels; ++k) {
        for (int64_t p = 0; p < plane; ++p) mean[size_t(p)] += x_n[k * plane + p];
      }
      for (float& m : mean) m /= float(d.channels);
      float* y_n = out + n * image;
      for (int64_t k = 0; k < d.channels; ++k) {
        for (int64_t p = 0; p < plane; ++p) {
          y_n[k * plane + p] = finish(x_n[k * plane + p] - mean[size_t(p)] + bias);
        }
      }
    });
  });
}

}  // namespace cae_cpu
