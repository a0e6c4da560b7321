// The options every backend on the runtime declares (v3's and v4's lists,
// plugins/v3/v3_options.hpp and plugins/v4/v4_options.hpp): poison-scratch,
// which sets Tuning::poison_scratch, short-products, which sets
// Tuning::short_products and split_short_products, linear-loss, which sets
// Tuning::linear_loss, kernel-products, which sets
// Tuning::tf32_kernel_products, and smo-rows, which sets
// Tuning::smo_rows_at_once; apply_runtime_options reads them all.
// Host code only (no CUDA).
#pragma once

#include <cae/backend.h>

#include "backend_options.hpp"
#include "runtime_tuning.hpp"

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
    "on|whole-rows|off",
    0,
    0,
    "kernel_matrix products with at most 16 rows on one side (the linear classifier's scores and "
    "gradients): on: a CUDA-core kernel that reads the long side once, its rows' columns cut "
    "into parts where the rows alone would make a small grid; whole-rows: the same kernel, a "
    "block per 32 rows over all their columns; off: cuBLASLt's FP32 GEMM"};

// On by default: on an H100, on the same 45,000 x 16,000 features, a pass
// with the loss on the host took 8.7-9.9 ms and 4.7-5.4 ms with it on the
// device (the scores no longer go down and the residuals up, nor wait for
// the host's threads between the products); the same C chosen, the same
// validation accuracy. Off stays, as the host path the device's is checked
// against.
constexpr cae_plugin::OptionSpec kLinearLossOption{
    CAE_OPTION_ENUM,
    "linear-loss",
    "on",
    "on|off",
    0,
    0,
    "the linear classifier's loss and residuals (linear_loss): on: on the GPU between the pass's "
    "two products, so only the gradient's product and the block sums go down; off: the member "
    "answers UNSUPPORTED and the host computes them from the downloaded scores"};

// FP32 by default: TF32 changes every kernel value the SVM sees (by about
// 1e-5 of the value on standardised 8,192-d features, as much as the host
// path's 16-bit kernel values), so the search's choice and the accuracy must
// be measured with it before it can be the default.
constexpr cae_plugin::OptionSpec kKernelProductsOption{
    CAE_OPTION_ENUM,
    "kernel-products",
    "fp32",
    "fp32|tf32",
    0,
    0,
    "kernel_matrix products with more than 16 rows on both sides (the SVM's kernel blocks and "
    "its decision values): fp32: cuBLASLt's FP32 GEMM; tf32: on the tensor cores with TF32 "
    "operands (10 mantissa bits) and FP32 sums, several times faster"};

// Four by default: the batched kernel takes the same steps (its choices are
// maxima and minima that no grouping of the rows changes): on an H100 the
// best recipe's 1.08 GB SVM model came out equal bit for bit from the same
// features, the pair solves in 2.21 s against 3.12 s. One row at a time
// stays, as the kernel to read first and to compare against.
constexpr cae_plugin::OptionSpec kSmoRowsOption{
    CAE_OPTION_ENUM,
    "smo-rows",
    "four",
    "one|four",
    0,
    0,
    "svm_dual_solve's kernel: each thread takes its rows of a class pair one after another "
    "(one) or four at a time, their loads in flight together (four); the same steps either way"};

// The Tuning settings of the options above, from a backend's resolved values
// (v3 and v4 declare them all): one reading for both backends.
inline void apply_runtime_options(const cae_plugin::OptionValues& chosen, Tuning& tuning) {
  tuning.poison_scratch = chosen.flag("poison-scratch");
  tuning.short_products = chosen.word("short-products") != "off";
  tuning.split_short_products = chosen.word("short-products") == "on";
  tuning.linear_loss = chosen.word("linear-loss") == "on";
  tuning.tf32_kernel_products = chosen.word("kernel-products") == "tf32";
  tuning.smo_rows_at_once = chosen.word("smo-rows") == "one" ? 1 : 4;
}

}  // namespace cae_cuda
