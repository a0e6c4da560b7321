#include "v3_options.hpp"

#include "runtime_options.hpp"

namespace cae_v3 {

const cae_plugin::OptionSpec kV3Options[5] = {
    cae_cuda::kPoisonScratchOption, cae_cuda::kShortProductsOption, cae_cuda::kLinearLossOption,
    cae_cuda::kKernelProductsOption, cae_cuda::kSmoRowsOption};

cae_cuda::Tuning v3_tuning(const cae_option_value* values, int32_t count) {
  const cae_plugin::OptionValues chosen = cae_plugin::resolve_options(kV3Options, values, count);
  cae_cuda::Tuning tuning;
  cae_cuda::apply_runtime_options(chosen, tuning);
  return tuning;
}

}  // namespace cae_v3
