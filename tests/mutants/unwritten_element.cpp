// unwritten-element: upsample2x_forward leaves its middle output element
// with whatever the output held before the call.
#include "mutant_core.hpp"

namespace mutant {
namespace {

cae_status upsample2x_forward(cae_context ctx, cae_tensor x, cae_tensor y) {
  if (!tracked({x, y})) return base().upsample2x_forward(ctx, x, y);
  return run([&] {
    const std::vector<float> before = download(ctx, y);
    check(base().upsample2x_forward(ctx, x, y));
    std::vector<float> after = download(ctx, y);
    after[after.size() / 2] = before[after.size() / 2];
    upload(ctx, y, after);
  });
}

}  // namespace

void mutate(cae_backend_table& table) { table.upsample2x_forward = upsample2x_forward; }

}  // namespace mutant
