// maxpool-tie: maxpool2x2_backward gives a tied window's gradient to the LAST
// element equal to the max; the header says the FIRST in row-major order.
// Windows of zeros after a ReLU are where this shows.
#include "mutant_core.hpp"

namespace mutant {
namespace {

cae_status maxpool2x2_backward(cae_context ctx, cae_tensor x, cae_tensor dy, cae_tensor dx) {
  const cae_status status = base().maxpool2x2_backward(ctx, x, dy, dx);
  if (status != CAE_STATUS_OK) return status;
  return run([&] {
    const Dims dims = dims_of(x);  // [N, C, H, W]
    const std::vector<float> in = download(ctx, x), grad_out = download(ctx, dy);
    std::vector<float> grad_in = download(ctx, dx);
    const int64_t planes = dims[0] * dims[1], h = dims[2], w = dims[3];
    for (int64_t p = 0; p < planes; ++p) {
      for (int64_t i = 0; i < h / 2; ++i) {
        for (int64_t j = 0; j < w / 2; ++j) {
          const int64_t top_left = (p * h + 2 * i) * w + 2 * j;
          const int64_t window[4] = {top_left, top_left + 1, top_left + w, top_left + w + 1};
          int64_t first = window[0], last = window[0];
          for (int64_t e : window) {
            if (in[e] > in[first]) {
              first = last = e;
            } else if (in[e] == in[first]) {
              last = e;
            }
          }
          grad_in[first] = 0.0f;
          grad_in[last] = grad_out[(p * (h / 2) + i) * (w / 2) + j];
        }
      }
    }
    upload(ctx, dx, grad_in);
  });
}

}  // namespace

void mutate(cae_backend_table& table) { table.maxpool2x2_backward = maxpool2x2_backward; }

}  // namespace mutant
