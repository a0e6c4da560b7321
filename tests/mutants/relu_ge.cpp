// relu-ge: relu_backward passes dy where y == 0 exactly (y >= 0 instead of
// y > 0), as if ReLU's derivative at its kink were 1.
#include "mutant_core.hpp"

namespace mutant {
namespace {

cae_status relu_backward(cae_context ctx, cae_tensor y, cae_tensor dy, cae_tensor dx) {
  if (!tracked({y, dy, dx})) return base().relu_backward(ctx, y, dy, dx);
  return run([&] {
    // Read before the call: dx may alias dy.
    const std::vector<float> out = download(ctx, y), grad_out = download(ctx, dy);
    check(base().relu_backward(ctx, y, dy, dx));
    std::vector<float> grad_in = download(ctx, dx);
    for (size_t i = 0; i < grad_in.size(); ++i) {
      if (out[i] == 0.0f) grad_in[i] = grad_out[i];
    }
    upload(ctx, dx, grad_in);
  });
}

}  // namespace

void mutate(cae_backend_table& table) { table.relu_backward = relu_backward; }

}  // namespace mutant
