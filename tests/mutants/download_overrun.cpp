// download-overrun: tensor_download writes one float past the end of dst.
#include "mutant_core.hpp"

namespace mutant {
namespace {

cae_status tensor_download(cae_context ctx, cae_tensor t, float* dst, size_t count) {
  const cae_status status = base().tensor_download(ctx, t, dst, count);
  if (status == CAE_STATUS_OK) dst[count] = 0.0f;
  return status;
}

}  // namespace

void mutate(cae_backend_table& table) { table.tensor_download = tensor_download; }

}  // namespace mutant
