#include "v4_options.hpp"

#include "runtime_options.hpp"

namespace cae_v4 {

const cae_plugin::OptionSpec kV4Options[11] = {
    {CAE_OPTION_INT, "bf16-terms", "1", nullptr, 1, 3,
     "BF16 terms per FP32 operand of the convolution GEMMs: 1 (8 mantissa bits, fastest), 2, or "
     "3 (about 16 bits, slower)"},
    {CAE_OPTION_BOOL, "fp32-conv", "false", nullptr, 0, 0,
     "the 3-channel layers (first and last convolution) in FP32: on cuBLASLt instead of TF32, "
     "and the fused last layer's forward on the CUDA cores instead of one BF16 GEMM"},
    {CAE_OPTION_ENUM, "edge-kernels", "cuda-cores", "cuda-cores|tensor-cores", 0, 0,
     "v4's own kernels of the 3-channel layers (the first layer's forward, alone or fused with "
     "its max-pool, and weight gradient; the fused last layer's backward): cuda-cores: FP32 "
     "multiply-adds; tensor-cores: TF32 mma.sync with two terms per operand, as exact, slower "
     "on an H100"},
    cae_cuda::kPoisonScratchOption,
    {CAE_OPTION_ENUM, "graph-capture", "on", "on|off", 0, 0,
     "graphs (--execution graph/auto): on: the first run of a graph goes node by node, the next "
     "is captured as one CUDA graph and later runs replay it (no host work per op; a capture "
     "that fails is an error naming the node); off: every run node by node"},
    {CAE_OPTION_ENUM, "graph-exchange", "overlap", "overlap|host", 0, 0,
     "data parallelism (--devices): overlap: each gradient is summed across the devices inside "
     "the step graph as soon as it is final, beside the rest of the backward pass; host: v4 "
     "declines such graphs and the host sums every gradient in one exchange after the backward "
     "pass"},
    {CAE_OPTION_ENUM, "graph-fusion", "on", "on|off", 0, 0,
     "captured graphs (graph-capture=on): on: an encoder's first layer (a convolution of at most "
     "4 input channels, its ReLU and its 2x2 max-pool) and a decoder's last (a 2x upsampling and "
     "a 3x3 convolution to at most 4 channels) run as fused kernels, their full-size tensors "
     "never written; off: every node as its own op"},
    cae_cuda::kShortProductsOption,
    cae_cuda::kLinearLossOption,
    cae_cuda::kKernelProductsOption,
    cae_cuda::kSmoRowsOption};

cae_cuda::Tuning v4_tuning(const cae_option_value* values, int32_t count) {
  const cae_plugin::OptionValues chosen = cae_plugin::resolve_options(kV4Options, values, count);
  cae_cuda::Tuning tuning;
  tuning.bf16_terms = static_cast<int>(chosen.integer("bf16-terms"));
  tuning.fp32_convolutions = chosen.flag("fp32-conv");
  tuning.tf32_edge_kernels = chosen.word("edge-kernels") == "tensor-cores";
  tuning.graph_capture = chosen.word("graph-capture") == "on";
  tuning.graph_exchanges = chosen.word("graph-exchange") == "overlap";
  tuning.graph_fusion = chosen.word("graph-fusion") == "on";
  cae_cuda::apply_runtime_options(chosen, tuning);
  return tuning;
}

}  // namespace cae_v4
