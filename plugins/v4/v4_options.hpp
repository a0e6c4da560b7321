// The options v4 declares (ABI 1.4) and the Tuning a context makes of the
// values chosen for them. Host code only (no CUDA): the options test links it
// without a GPU.
#pragma once

#include <cae/backend.h>

#include "backend_options.hpp"
#include "runtime_tuning.hpp"

namespace cae_v4 {

// bf16-terms, fp32-conv, edge-kernels, poison-scratch, graph-capture, graph-exchange,
// graph-fusion, short-products, linear-loss, kernel-products, smo-rows.
extern const cae_plugin::OptionSpec kV4Options[11];

// The Tuning of a v4 context for the chosen values. Throws cae_plugin::Error
// (UNSUPPORTED, INVALID_ARGUMENT) naming a bad one.
cae_cuda::Tuning v4_tuning(const cae_option_value* values, int32_t count);

}  // namespace cae_v4
