#include "v3_options.hpp"

namespace cae_v3 {

namespace {

constexpr cae_plugin::OptionSpec kPoisonScratch{
    CAE_OPTION_BOOL, "poison-scratch", "false", nullptr, 0, 0,
    "fill scratch areas with NaN before every use: a slower check that no result reads memory "
    "an op did not write (a correct backend's results do not change)"};

}  // namespace

const cae_plugin::OptionSpec kV3Options[1] = {kPoisonScratch};

const cae_plugin::OptionSpec kV4Options[3] = {
    {CAE_OPTION_INT, "bf16-terms", "1", nullptr, 1, 3,
     "BF16 terms per FP32 operand of the convolution GEMMs: 1 (8 mantissa bits, fastest), 2, or "
     "3 (about 16 bits, slower)"},
    {CAE_OPTION_BOOL, "fp32-conv", "false", nullptr, 0, 0,
     "the 3-channel layers (first and last convolution) in FP32 on cuBLASLt instead of TF32"},
    kPoisonScratch};

Tuning v3_tuning(const cae_option_value* values, int32_t count) {
  const cae_plugin::OptionValues chosen = cae_plugin::resolve_options(kV3Options, values, count);
  Tuning tuning;
  tuning.poison_scratch = chosen.flag("poison-scratch");
  return tuning;
}

Tuning v4_tuning(const cae_option_value* values, int32_t count) {
  const cae_plugin::OptionValues chosen = cae_plugin::resolve_options(kV4Options, values, count);
  Tuning tuning;
  tuning.bf16_terms = static_cast<int>(chosen.integer("bf16-terms"));
  tuning.fp32_convolutions = chosen.flag("fp32-conv");
  tuning.poison_scratch = chosen.flag("poison-scratch");
  return tuning;
}

}  // namespace cae_v3
