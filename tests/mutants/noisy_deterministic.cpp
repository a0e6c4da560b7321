// noisy-deterministic: declares deterministic (device_info is the cpu
// backend's), but conv2d_forward moves one output element up by 1 ulp on
// every other call.
#include <atomic>
#include <cmath>
#include <limits>

#include "mutant_core.hpp"

namespace mutant {
namespace {

cae_status conv2d_forward(cae_context ctx, cae_tensor x, cae_tensor w, cae_tensor b, cae_tensor y,
                          int32_t fuse_relu) {
  const cae_status status = base().conv2d_forward(ctx, x, w, b, y, fuse_relu);
  if (status != CAE_STATUS_OK) return status;
  static std::atomic<unsigned long> calls{0};
  if (calls++ % 2 == 0) return status;
  return run([&] {
    std::vector<float> out = download(ctx, y);
    float& element = out[out.size() / 2];
    element = std::nextafter(element, std::numeric_limits<float>::infinity());
    upload(ctx, y, out);
  });
}

}  // namespace

void mutate(cae_backend_table& table) { table.conv2d_forward = conv2d_forward; }

}  // namespace mutant
