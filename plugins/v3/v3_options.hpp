// The options v3 declares (ABI 1.4) and the Tuning a context makes of the
// values chosen for them. Host code only (no CUDA): the options test links it
// without a GPU.
#pragma once

#include <cae/backend.h>

#include "backend_options.hpp"
#include "runtime_tuning.hpp"

namespace cae_v3 {

// v3's: poison-scratch, short-products.
extern const cae_plugin::OptionSpec kV3Options[5];

// The Tuning of a v3 context for the chosen values. Throws cae_plugin::Error
// (UNSUPPORTED, INVALID_ARGUMENT) naming a bad one.
cae_cuda::Tuning v3_tuning(const cae_option_value* values, int32_t count);

}  // namespace cae_v3
