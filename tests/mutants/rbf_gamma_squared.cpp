// rbf-gamma-squared: kernel_matrix's RBF kernel uses gamma * gamma.
#include "mutant_core.hpp"

namespace mutant {
namespace {

cae_status kernel_matrix(cae_context ctx, cae_tensor x, cae_tensor y, cae_tensor k, int32_t kind,
                         float gamma) {
  const float used = kind == CAE_KERNEL_RBF ? gamma * gamma : gamma;
  return base().kernel_matrix(ctx, x, y, k, kind, used);
}

}  // namespace

void mutate(cae_backend_table& table) { table.kernel_matrix = kernel_matrix; }

}  // namespace mutant
