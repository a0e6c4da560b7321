// transpose (ABI 1.11): y [c,r] = x [r,c], in 32 x 32 tiles so that both the
// reads and the writes of a tile stay within a few cache lines; the threads
// take bands of x's rows.
#include <algorithm>
#include <cstdint>

#include "cpu_context.hpp"
#include "cpu_ops.hpp"
#include "cpu_parallel.hpp"
#include "op_shapes.hpp"

namespace cae_cpu {

cae_status transpose(cae_context ctx, cae_tensor x, cae_tensor y) {
  return cae_plugin::guard(ctx, [&] {
    const char* op = "transpose";
    cae_context_s& c = context_arg(ctx, op);
    const cae_tensor_s& X = tensor_arg(c, x, op, "x");
    const cae_tensor_s& Y = tensor_arg(c, y, op, "y");
    const cae_plugin::TransposeDims d = cae_plugin::check_transpose(X.shape, Y.shape, x == y);
    constexpr int64_t kTile = 32;
    const float* in = X.data();
    float* out = Y.data();
    const int64_t bands = (d.rows + kTile - 1) / kTile;
    parallel_for(c.threads, bands, [&](int64_t band) {
      const int64_t r0 = band * kTile, r1 = std::min(d.rows, r0 + kTile);
      for (int64_t c0 = 0; c0 < d.cols; c0 += kTile) {
        const int64_t c1 = std::min(d.cols, c0 + kTile);
        for (int64_t j = c0; j < c1; ++j) {
          for (int64_t i = r0; i < r1; ++i) out[j * d.rows + i] = in[i * d.cols + j];
        }
      }
    });
  });
}

}  // namespace cae_cpu
