// The option every backend on the runtime declares (v3's and v4's lists,
// plugins/v3/v3_options.hpp and plugins/v4/v4_options.hpp): poison-scratch,
// which sets Tuning::poison_scratch. Host code only (no CUDA).
#pragma once

#include <cae/backend.h>

#include "backend_options.hpp"

namespace cae_cuda {

constexpr cae_plugin::OptionSpec kPoisonScratchOption{
    CAE_OPTION_BOOL,
    "poison-scratch",
    "false",
    nullptr,
    0,
    0,
    "fill scratch areas with NaN before every use: a slower check that no result reads memory "
    "an op did not write (a correct backend's results do not change)"};

}  // namespace cae_cuda
