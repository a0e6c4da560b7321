// add_normal_noise (ABI 1.12): y = x + sigma * the header's normal draws. The
// cpu backend stores every tensor in the boundary order, so value i is the
// i-th float; the threads take blocks of values, each value computing its
// own draw (the two values of a pair hash alike: computing the hash twice
// keeps a block's edge from splitting a pair's work between threads).
#include <algorithm>
#include <cstdint>

#include "cpu_context.hpp"
#include "cpu_ops.hpp"
#include "cpu_parallel.hpp"
#include "op_shapes.hpp"

namespace cae_cpu {

cae_status add_normal_noise(cae_context ctx, cae_tensor x, cae_tensor y, float sigma, uint64_t seed,
                            uint64_t first_index) {
  return cae_plugin::guard(ctx, [&] {
    const char* op = "add_normal_noise";
    cae_context_s& c = context_arg(ctx, op);
    const cae_tensor_s& X = tensor_arg(c, x, op, "x");
    cae_tensor_s& Y = tensor_arg(c, y, op, "y");
    const int64_t count = cae_plugin::check_add_normal_noise(X.shape, Y.shape, sigma);
    const float* in = X.data();
    float* out = Y.data();
    constexpr int64_t kBlock = 1 << 14;
    parallel_for(c.threads, (count + kBlock - 1) / kBlock, [&](int64_t block) {
      const int64_t end = std::min(count, (block + 1) * kBlock);
      for (int64_t i = block * kBlock; i < end; ++i) {
        out[i] = in[i] + sigma * cae_normal_draw(seed, first_index + uint64_t(i));
      }
    });
  });
}

}  // namespace cae_cpu
