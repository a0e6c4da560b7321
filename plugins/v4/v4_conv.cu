// v4's convolutions: three implicit GEMMs per layer on BF16 tensor cores.
//
// With P = N*H*W pixels, T = K*K taps, NHWC tensors and weights w[o][t][c]:
//   forward      y[P][O]   = gather(x, +1)[P][T*C] * Wf[O][T*C]^T, bias + ReLU fused;
//                with few outputs (4 O <= C, the last decoder layer) the "taps"
//                form instead: taps[P][T*O] = x[P][C] * Wt[T*O][C]^T (x read once,
//                not T times), then y = bias + sum over t of taps shifted by tap t
//   data grad    dx[P][C]  = gather(dy, -1)[P][T*O] * Wd[C][T*O]^T, Wd[c][t*O+o] = w[o][t][c]
//   weight grad  dW        = dy^T[O][P] * gather(x, +1)^T[T*C][P]^T, or, when dy has
//                fewer channels, x^T[C][P] * gather(dy, -1)^T[T*O][P]^T (the gathered
//                operand is the one read T times); split along P, oriented so
//                that the wider operand is the GEMM's M
//   bias grad    db        = column sums of dy (v3's deterministic reduction)
// The gathers happen inside the GEMM's operand loads (v4_operands.cuh): no
// im2col matrix reaches device memory. Wf and Wd are BF16, zero-padded to
// whole tiles, derived once per weight version and kept with the weight tensor.
// Split-K partial sums are added in a fixed order: results are deterministic.
#include <cuda_bf16.h>

#include <algorithm>
#include <string>

#include "v3_launch.cuh"
#include "v3_ops.hpp"
#include "v4_epilogues.cuh"
#include "v4_igemm.cuh"

namespace cae_v3 {
namespace {

using cae_v4::BiasReluStore;
using cae_v4::ChannelsOverPixels;
using cae_v4::ConvGeometry;
using cae_v4::GatheredPixels;
using cae_v4::MatrixStore;
using cae_v4::PreparedRows;
using cae_v4::TapsOverPixels;

constexpr int kRowPadding = 256;  // the widest tile: prepared rows never need a bounds check

int64_t round_up(int64_t value, int64_t to) { return (value + to - 1) / to * to; }

// The three prepared weight forms, one allocation: forward Wf[o][t*C+c],
// data gradient Wd[c][t*O+o], taps Wt[t*O+o][c].
struct WeightForms {
  int64_t forward_rows, forward_ld, data_rows, data_ld, taps_rows, taps_ld;
  explicit WeightForms(const cae_plugin::ConvDims& d)
      : forward_rows(round_up(d.O, kRowPadding)),
        forward_ld(round_up(d.K * d.K * d.C, cae_v4::kTileK)),
        data_rows(round_up(d.C, kRowPadding)),
        data_ld(round_up(d.K * d.K * d.O, cae_v4::kTileK)),
        taps_rows(round_up(d.K * d.K * d.O, kRowPadding)),
        taps_ld(round_up(d.C, cae_v4::kTileK)) {}
  int64_t forward_count() const { return forward_rows * forward_ld; }
  int64_t data_count() const { return data_rows * data_ld; }
  int64_t count() const { return forward_count() + data_count() + taps_rows * taps_ld; }
};

// The forward pass multiplies per-tap outputs when there are few outputs.
bool taps_forward(const cae_plugin::ConvDims& d) { return d.K > 1 && 4 * d.O <= d.C; }

__global__ void prepare_weight_forms_kernel(const float* w, int O, int C, int taps,
                                            __nv_bfloat16* forms, int64_t forward_count,
                                            int forward_ld, int64_t data_count, int data_ld,
                                            int taps_ld, int64_t total) {
  for (int64_t e = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; e < total;
       e += int64_t(gridDim.x) * blockDim.x) {
    float v = 0.0f;
    if (e < forward_count) {
      const int o = int(e / forward_ld), k = int(e % forward_ld);
      if (o < O && k < taps * C) v = w[int64_t(o) * taps * C + k];
    } else if (e < forward_count + data_count) {
      const int64_t f = e - forward_count;
      const int c = int(f / data_ld), k = int(f % data_ld);
      if (c < C && k < taps * O) {
        const int tap = k / O, o = k % O;
        v = w[(int64_t(o) * taps + tap) * C + c];
      }
    } else {
      const int64_t f = e - forward_count - data_count;
      const int r = int(f / taps_ld), c = int(f % taps_ld);
      if (r < taps * O && c < C) {
        const int tap = r / O, o = r % O;
        v = w[(int64_t(o) * taps + tap) * C + c];
      }
    }
    forms[e] = __float2bfloat16_rn(v);
  }
}

// What the weight-gradient GEMM's rows and columns are.
enum class GradientLayout : int {
  kOutputsByTapChannels,  // D[o][t*C+c]
  kTapChannelsByOutputs,  // D[t*C+c][o]
  kChannelsByTapOutputs,  // D[c][t*O+o]  (dy gathered)
  kTapOutputsByChannels,  // D[t*O+o][c]  (dy gathered)
};

// dw[o][t][c] from split partial sums [splits][rows][cols], added in split order.
__global__ void sum_splits_kernel(const float* partial, int splits, int rows, int cols,
                                  GradientLayout layout, int O, int taps, int C, float* dw) {
  const int64_t slice = int64_t(rows) * cols;
  for (int64_t e = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; e < slice;
       e += int64_t(gridDim.x) * blockDim.x) {
    float total = 0.0f;
    for (int s = 0; s < splits; ++s) total += partial[s * slice + e];
    const int r = int(e / cols), k = int(e % cols);
    int64_t at = 0;
    switch (layout) {
      case GradientLayout::kOutputsByTapChannels: at = e; break;
      case GradientLayout::kTapChannelsByOutputs: at = int64_t(k) * taps * C + r; break;
      case GradientLayout::kChannelsByTapOutputs:
        at = (int64_t(k % O) * taps + k / O) * C + r;
        break;
      case GradientLayout::kTapOutputsByChannels:
        at = (int64_t(r % O) * taps + r / O) * C + k;
        break;
    }
    dw[at] = total;
  }
}

// y[p][o] = bias[o] + sum over taps t of taps[p shifted by t][t*O+o] (inside the image).
__global__ void tap_sum_kernel(const float* tap_outputs, ConvGeometry g, int O,
                               const float* bias, bool relu, float* y) {
  const int T = g.K * g.K;
  const int64_t count = int64_t(g.pixels) * O;
  for (int64_t e = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; e < count;
       e += int64_t(gridDim.x) * blockDim.x) {
    const int p = int(e / O), o = int(e % O), w = p % g.W, h = (p / g.W) % g.H;
    float v = bias[o];
    for (int t = 0; t < T; ++t) {
      const int dh = t / g.K - g.K / 2, dw = t % g.K - g.K / 2;
      if (g.inside(h + dh, w + dw)) v += tap_outputs[int64_t(p + dh * g.W + dw) * T * O + t * O + o];
    }
    y[e] = relu ? fmaxf(v, 0.0f) : v;
  }
}

unsigned flat_blocks(int64_t count) {
  return static_cast<unsigned>(std::min<int64_t>((count + 255) / 256, 65535));
}

void require_hopper(const Context& ctx) {
  int major = 0, minor = 0;
  CAE_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, ctx.device));
  CAE_CUDA_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, ctx.device));
  if (major != 9 || minor != 0) {
    cae_plugin::fail(CAE_STATUS_UNSUPPORTED,
                     "v4's convolutions are built for sm_90a (Hopper, compute capability 9.0); "
                     "device " + std::to_string(ctx.device) + " is " + std::to_string(major) +
                         "." + std::to_string(minor));
  }
}

void check_limits(const cae_plugin::ConvDims& d) {
  const int64_t pixels = d.N * d.H * d.W;
  const int64_t widest = std::max(d.C, d.O) * d.K * d.K;
  const int64_t limit = int64_t(1) << 30;
  if (pixels * std::max(d.C, d.O) >= limit || widest * std::max(d.C, d.O) >= limit ||
      pixels + kRowPadding >= limit) {
    cae_plugin::fail(CAE_STATUS_UNSUPPORTED,
                     "conv2d: v4 indexes pixels, channels and weights in 31 bits (" +
                         std::to_string(pixels) + " pixels x " +
                         std::to_string(std::max(d.C, d.O)) + " channels)");
  }
}

// The BF16 weight forms of w, derived when w changed since they were made.
const __nv_bfloat16* weight_forms(Context& ctx, const cae_plugin::ConvDims& d, cae_tensor_s& w) {
  const WeightForms forms(d);
  auto* data = static_cast<__nv_bfloat16*>(
      derived_storage(w.prepared_weights, size_t(forms.count()) * sizeof(__nv_bfloat16), ctx.memory,
                      "v4 BF16 conv weights"));
  if (w.prepared_weights.version != w.version) {
    w.prepared_weights.version = 0;  // never stale if the launch fails
    prepare_weight_forms_kernel<<<flat_blocks(forms.count()), 256, 0, ctx.stream>>>(
        w.data, int(d.O), int(d.C), int(d.K * d.K), data, forms.forward_count(),
        int(forms.forward_ld), forms.data_count(), int(forms.data_ld), int(forms.taps_ld),
        forms.count());
    check_launch("v4 prepare_weight_forms_kernel");
    w.prepared_weights.version = w.version;
  }
  return data;
}

template <int BN, class A, class B, class E>
void launch_width(Context& ctx, const A& a, const B& b, const E& e, int64_t M, int64_t N,
                  int k_tiles, int per_split, const char* what) {
  using Shape = cae_v4::TileShape<BN>;
  auto* kernel = cae_v4::igemm_kernel<BN, A, B, E>;
  CAE_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                      int(Shape::shared_bytes)));
  const dim3 grid(unsigned((M + cae_v4::kTileM - 1) / cae_v4::kTileM), unsigned((N + BN - 1) / BN),
                  unsigned((k_tiles + per_split - 1) / per_split));
  kernel<<<grid, cae_v4::kBlockThreads, Shape::shared_bytes, ctx.stream>>>(a, b, e, k_tiles,
                                                                           per_split);
  check_launch(what);
}

// The narrowest tile that covers N (wide N: 128-wide tiles side by side).
template <class A, class B, class E>
void launch_gemm(Context& ctx, const A& a, const B& b, const E& e, int64_t M, int64_t N,
                 int k_tiles, int per_split, const char* what) {
  if (N <= 16) return launch_width<16>(ctx, a, b, e, M, N, k_tiles, per_split, what);
  if (N <= 32) return launch_width<32>(ctx, a, b, e, M, N, k_tiles, per_split, what);
  if (N <= 64) return launch_width<64>(ctx, a, b, e, M, N, k_tiles, per_split, what);
  return launch_width<128>(ctx, a, b, e, M, N, k_tiles, per_split, what);
}

int tile_width(int64_t N) { return N <= 16 ? 16 : N <= 32 ? 32 : N <= 64 ? 64 : 128; }

// How the K tiles of a weight gradient are cut: enough blocks for two per
// multiprocessor, at least 4 K tiles each. count slices of per_split tiles
// (the last may be shorter) cover all k_tiles; the grid has count slices.
struct KSplit {
  int per_split, count;
};
KSplit split_k(const Context& ctx, int64_t M, int64_t N, int k_tiles) {
  const int64_t tiles = ((M + cae_v4::kTileM - 1) / cae_v4::kTileM) *
                        ((N + tile_width(N) - 1) / tile_width(N));
  const int64_t wanted = (2 * int64_t(ctx.multiprocessors) + tiles - 1) / tiles;
  const int splits = int(std::max<int64_t>(1, std::min<int64_t>(wanted, k_tiles / 4)));
  const int per_split = (k_tiles + splits - 1) / splits;
  return KSplit{per_split, (k_tiles + per_split - 1) / per_split};
}

ConvGeometry geometry(const cae_plugin::ConvDims& d) {
  return ConvGeometry{int(d.H), int(d.W), int(d.K), int(d.N * d.H * d.W)};
}

}  // namespace

void conv2d_forward(Context& ctx, const cae_plugin::ConvDims& d, const cae_tensor_s& x,
                    cae_tensor_s& w, const float* b, float* y, bool relu) {
  require_hopper(ctx);
  check_limits(d);
  const WeightForms forms(d);
  const __nv_bfloat16* prepared = weight_forms(ctx, d, w);
  const ConvGeometry g = geometry(d);
  const int taps = int(d.K * d.K);
  if (taps_forward(d)) {
    const ConvGeometry pointwise{g.H, g.W, 1, g.pixels};
    const GatheredPixels a{x.data, pointwise, int(d.C), int(d.C), +1};
    const PreparedRows bt{prepared + forms.forward_count() + forms.data_count(),
                          int(forms.taps_ld)};
    const int64_t width = taps * d.O;
    float* tap_outputs = ctx.scratch.get(size_t(g.pixels) * size_t(width));
    const MatrixStore out{tap_outputs, g.pixels, int(width), 0};
    launch_gemm(ctx, a, bt, out, g.pixels, width, int(forms.taps_ld / cae_v4::kTileK),
                int(forms.taps_ld / cae_v4::kTileK), "v4 conv per-tap GEMM");
    tap_sum_kernel<<<flat_blocks(g.pixels * d.O), 256, 0, ctx.stream>>>(tap_outputs, g, int(d.O),
                                                                       b, relu, y);
    check_launch("v4 tap_sum_kernel");
    return;
  }
  const GatheredPixels a{x.data, g, int(d.C), taps * int(d.C), +1};
  const PreparedRows bw{prepared, int(forms.forward_ld)};
  const BiasReluStore out{y, b, g.pixels, int(d.O), relu};
  launch_gemm(ctx, a, bw, out, g.pixels, d.O, int(forms.forward_ld / cae_v4::kTileK),
              int(forms.forward_ld / cae_v4::kTileK), "v4 conv forward GEMM");
}

void conv2d_backward(Context& ctx, const cae_plugin::ConvDims& d, const cae_tensor_s& x,
                     cae_tensor_s& w, const float* dy, float* dx, float* dw, float* db) {
  require_hopper(ctx);
  check_limits(d);
  const ConvGeometry g = geometry(d);
  const int taps = int(d.K * d.K), C = int(d.C), O = int(d.O);
  if (dx != nullptr) {
    const WeightForms forms(d);
    const __nv_bfloat16* prepared = weight_forms(ctx, d, w) + forms.forward_count();  // Wd
    const GatheredPixels a{dy, g, O, taps * O, -1};
    const PreparedRows bw{prepared, int(forms.data_ld)};
    const MatrixStore out{dx, g.pixels, C, 0};
    launch_gemm(ctx, a, bw, out, g.pixels, C, int(forms.data_ld / cae_v4::kTileK),
                int(forms.data_ld / cae_v4::kTileK), "v4 conv data-gradient GEMM");
  }
  const int k_tiles = (g.pixels + cae_v4::kTileK - 1) / cae_v4::kTileK;
  // Gather the tensor with fewer channels (it is read T times); the wider
  // operand is the GEMM's M.
  const bool gather_x = C <= O;
  const TapsOverPixels gathered = gather_x ? TapsOverPixels{x.data, g, C, taps * C, +1}
                                           : TapsOverPixels{dy, g, O, taps * O, -1};
  const ChannelsOverPixels plain =
      gather_x ? ChannelsOverPixels{dy, O, g.pixels} : ChannelsOverPixels{x.data, C, g.pixels};
  const bool gathered_rows = gathered.rows >= plain.channels;
  const int64_t M = gathered_rows ? gathered.rows : plain.channels;
  const int64_t N = gathered_rows ? plain.channels : gathered.rows;
  const GradientLayout layout =
      gather_x ? (gathered_rows ? GradientLayout::kTapChannelsByOutputs
                                : GradientLayout::kOutputsByTapChannels)
               : (gathered_rows ? GradientLayout::kTapOutputsByChannels
                                : GradientLayout::kChannelsByTapOutputs);
  const KSplit split = split_k(ctx, M, N, k_tiles);
  // The scratch area (one get per op); the bias sums use the reduction area.
  float* partial = ctx.scratch.get(size_t(split.count) * size_t(M * N));
  const MatrixStore out{partial, int(M), int(N), M * N};
  if (gathered_rows) {
    launch_gemm(ctx, gathered, plain, out, M, N, k_tiles, split.per_split,
                "v4 conv weight-gradient GEMM");
  } else {
    launch_gemm(ctx, plain, gathered, out, M, N, k_tiles, split.per_split,
                "v4 conv weight-gradient GEMM");
  }
  sum_splits_kernel<<<flat_blocks(M * N), 256, 0, ctx.stream>>>(partial, split.count, int(M),
                                                                 int(N), layout, O, taps, C, dw);
  check_launch("v4 sum_splits_kernel");
  column_sums(ctx, dy, g.pixels, O, db);
}

}  // namespace cae_v3
