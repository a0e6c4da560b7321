// adam-no-bias-correction: Adam without bias correction. The base op is
// called with a huge step, where beta^step underflows to 0 and both
// corrections (1 - beta^step) become 1; everything else is unchanged.
#include "mutant_core.hpp"

namespace mutant {
namespace {

cae_status adam_step(cae_context ctx, cae_tensor param, cae_tensor grad, cae_tensor m, cae_tensor v,
                     const cae_adam_params* params) {
  if (!params) return base().adam_step(ctx, param, grad, m, v, params);
  cae_adam_params uncorrected = *params;
  uncorrected.step = 1 << 30;
  return base().adam_step(ctx, param, grad, m, v, &uncorrected);
}

}  // namespace

void mutate(cae_backend_table& table) { table.adam_step = adam_step; }

}  // namespace mutant
