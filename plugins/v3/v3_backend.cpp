// The v3 backend's table and its one exported symbol.
#include <cae/backend.h>

#include "v3_entry.hpp"

namespace {

using namespace cae_v3::entry;

const cae_backend_table kTable = {
    sizeof(cae_backend_table),
    CAE_ABI_MAJOR,
    CAE_ABI_MINOR,
    0,
    "v3",
    "1.0.0",
    "CUDA, TF32 tensor cores: channels-last convolutions as cuBLASLt GEMMs with fused epilogues",
    probe,
    create,
    destroy,
    last_error,
    device_info,
    tensor_alloc,
    tensor_free,
    tensor_upload,
    tensor_download,
    conv2d_forward,
    conv2d_backward,
    relu_forward,
    relu_backward,
    maxpool2x2_forward,
    maxpool2x2_backward,
    upsample2x_forward,
    upsample2x_backward,
    mse_loss,
    sgd_step,
    adam_step,
    kernel_matrix,
    synchronize,
    timer_start,
    timer_stop,
    memory_stats,
};

}  // namespace

extern "C" CAE_BACKEND_EXPORT const cae_backend_table* cae_backend_get_table(
    uint32_t host_abi_major) {
  return host_abi_major == CAE_ABI_MAJOR ? &kTable : nullptr;
}
