// conv-drop-last-dw: conv2d_backward's dw misses the last batch image's
// contribution. Computed as the full dw minus the base op's dw of a 1-image
// slice holding that last image.
#include "mutant_core.hpp"

namespace mutant {
namespace {

std::vector<float> last_image(const std::vector<float>& batch, const Dims& dims) {
  const size_t per_image = count_of(dims) / static_cast<size_t>(dims[0]);
  return std::vector<float>(batch.end() - static_cast<std::ptrdiff_t>(per_image), batch.end());
}

cae_status conv2d_backward(cae_context ctx, cae_tensor x, cae_tensor w, cae_tensor dy,
                           cae_tensor dx, cae_tensor dw, cae_tensor db) {
  const cae_status status = base().conv2d_backward(ctx, x, w, dy, dx, dw, db);
  if (status != CAE_STATUS_OK) return status;
  return run([&] {
    Dims x_dims = dims_of(x), dy_dims = dims_of(dy), db_dims = dims_of(db);
    const Dims dw_dims = dims_of(dw);
    const std::vector<float> x_last = last_image(download(ctx, x), x_dims);
    const std::vector<float> dy_last = last_image(download(ctx, dy), dy_dims);
    x_dims[0] = dy_dims[0] = 1;
    Scratch x1(ctx, x_dims, x_last), dy1(ctx, dy_dims, dy_last);
    Scratch dw1(ctx, dw_dims), db1(ctx, db_dims);
    check(base().conv2d_backward(ctx, x1.get(), w, dy1.get(), nullptr, dw1.get(), db1.get()));
    std::vector<float> grad = download(ctx, dw);
    const std::vector<float> last_contribution = dw1.download();
    for (size_t i = 0; i < grad.size(); ++i) grad[i] -= last_contribution[i];
    upload(ctx, dw, grad);
  });
}

}  // namespace

void mutate(cae_backend_table& table) { table.conv2d_backward = conv2d_backward; }

}  // namespace mutant
