// The options every backend on the runtime declares (v3's and v4's lists,
// plugins/v3/v3_options.hpp and plugins/v4/v4_options.hpp): poison-scratch,
// which sets Tuning::poison_scratch, and short-products, which sets
// Tuning::short_products. Host code only (no CUDA).
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

constexpr cae_plugin::OptionSpec kShortProductsOption{
    CAE_OPTION_ENUM,
    "short-products",
    "on",
    "on|off",
    0,
    0,
    "kernel_matrix products with at most 16 rows on one side (the linear classifier's scores and "
    "gradients): on: a CUDA-core kernel that reads the long side once, at memory bandwidth; off: "
    "cuBLASLt's FP32 GEMM"};

}  // namespace cae_cuda
