#include "v3_options.hpp"

#include "runtime_options.hpp"

namespace cae_v3 {

const cae_plugin::OptionSpec kV3Options[5] = {
    cae_cuda::kPoisonScratchOption, cae_cuda::kShortProductsOption, cae_cuda::kLinearLossOption,
    cae_cuda::kKernelProductsOption, cae_cuda::kSmoRowsOption};

cae_cuda::Tuning v3_tuning(const cae_option_value* values, int32_t count) {
  const cae_plugin::OptionValues chosen = cae_plugin::resolve_options(kV3Options, values, count);
  cae_cuda::Tuning tuning;
  tuning.poison_scratch = chosen.flag("poison-scratch");
  tuning.short_products = chosen.word("short-products") != "off";
  tuning.split_short_products = chosen.word("short-products") == "on";
  tuning.linear_loss = chosen.word("linear-loss") == "on";
  tuning.tf32_kernel_products = chosen.word("kernel-products") == "tf32";
  tuning.smo_rows_at_once = chosen.word("smo-rows") == "one" ? 1 : 4;
  return tuning;
}

}  // namespace cae_v3
