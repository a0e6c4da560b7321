// What the shared entry points (cuda_op_entries.hpp) ask of v2 beyond its
// kernels: uploads and downloads convert between the boundary order (NCHW)
// and v2's stored order (CNHW) of 4-D tensors, and the element-wise ops with
// several operands bring them to one order first (v2_common_order.hpp). v2
// keeps no state derived from a tensor's contents, so allocations, frees and
// writes need no bookkeeping.
#include "cuda_device_ops.hpp"
#include "v2_common_order.hpp"
#include "v2_context.hpp"
#include "v2_ops.hpp"

namespace cae_plugin {
namespace cuda {
namespace device_ops {

using cae_v2::Access;
using cae_v2::CommonOrder;

void tensor_allocated(Context&, cae_tensor_s&) {}
void tensor_freeing(Context&, cae_tensor_s&) {}
void writing(Context&, cae_tensor_s*) {}

void upload(Context& c, cae_tensor_s& tensor, const float* src, size_t count) {
  auto upload_to = [&](float* device_dst) {
    upload_host_floats(c.host_memory, c.stream, device_dst, src, count,
                       [&](float* dst, const float* from, size_t n) {
                         c.upload_staging.copy_to_device(c.stream, dst, from, n);
                       });
  };
  if (!cae_v2::stored_channel_major(tensor.shape)) {
    upload_to(tensor.data);
    return;
  }
  float* boundary = c.workspace.reserve(count);
  upload_to(boundary);
  cae_v2::boundary_to_stored(c, tensor.shape, boundary, tensor.data);
}

const float* boundary_order(Context& c, const cae_tensor_s& tensor, size_t count) {
  if (!cae_v2::stored_channel_major(tensor.shape)) return tensor.data;
  float* staging = c.workspace.reserve(count);
  cae_v2::stored_to_boundary(c, tensor.shape, tensor.data, staging);
  return staging;
}

void mse_loss(Context& c, cae_tensor_s& pred, cae_tensor_s& target, cae_tensor_s& loss,
              cae_tensor_s* grad) {
  CommonOrder order(c,
                    {{{&pred, Access::read},
                      {&target, Access::read},
                      {grad, Access::write},
                      {nullptr, Access::read}}},
                    3);
  cae_v2::mse_loss(c, order.data(0), order.data(1), pred.shape.count(), loss.data, order.data(2));
  order.write_back();
}

void sgd_step(Context& c, cae_tensor_s& param, cae_tensor_s& grad, cae_tensor_s* velocity,
              float learning_rate, float momentum, float weight_decay) {
  CommonOrder order(c,
                    {{{&param, Access::read_write},
                      {&grad, Access::read},
                      {velocity, Access::read_write},
                      {nullptr, Access::read}}},
                    3);
  cae_v2::sgd_step(c, order.data(0), order.data(1), order.data(2), param.shape.count(),
                   learning_rate, momentum, weight_decay);
  order.write_back();
}

void adam_step(Context& c, cae_tensor_s& param, cae_tensor_s& grad, cae_tensor_s& m,
               cae_tensor_s& v, const cae_adam_params& params) {
  CommonOrder order(c,
                    {{{&param, Access::read_write},
                      {&grad, Access::read},
                      {&m, Access::read_write},
                      {&v, Access::read_write}}},
                    4);
  cae_v2::adam_step(c, order.data(0), order.data(1), order.data(2), order.data(3),
                    param.shape.count(), params);
  order.write_back();
}

}  // namespace device_ops
}  // namespace cuda
}  // namespace cae_plugin
