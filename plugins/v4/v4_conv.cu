// v4's convolutions: three implicit GEMMs per layer on BF16 tensor cores.
//
// With P = N*H*W pixels, T = K*K taps, NHWC tensors and weights w[o][t][c]:
//   forward      y[P][O]   = gather(x, +1)[P][T*C] * Wf[O][T*C]^T, bias + ReLU fused;
//                with few outputs (4 O <= C) the "taps" form instead:
//                taps[P][T*O] = x[P][C] * Wt[T*O][C]^T (x read once, not T times),
//                then y = bias + sum over t of taps shifted by tap t
//   data grad    dx[P][C]  = gather(dy, -1)[P][T*O] * Wd[C][T*O]^T, Wd[c][t*O+o] = w[o][t][c]
//   weight grad  dW[O][T*C] = dy^T[O][P] * gather(x, +1)^T[T*C][P]^T, K = P split so
//                that the grid fills the GPU; both operands MN-major. (The cp.async
//                fallback instead gathers the tensor with fewer channels, the one
//                read T times, and orients the wider operand as the GEMM's M.)
//   bias grad    db        = column sums of dy (the runtime's deterministic reduction)
// The GEMMs read BF16 NHWC copies of x and dy (one conversion pass each per
// op; with several BF16 terms, one per stacked copy) and gather inside their
// operand copies: boxes of the copy engine shifted per tap (v4_tma_igemm.cuh)
// where whole image rows make a tile, else 16-byte cp.async chunks
// (v4_operands.cuh). No im2col matrix reaches device memory. Wf, Wd and Wt
// are BF16, zero-padded to whole tiles, derived once per weight version and
// kept with the weight tensor.
// Split-K partial sums are added in a fixed order: results are deterministic.
//
// The option bf16-terms=N (N = 2, 3) multiplies each FP32 operand as N BF16 terms,
// hi = bf16(v) and lo = bf16(v - hi), without another kernel: the terms are
// stacked along K, so the same GEMM of N times the K adds the N products.
// Forward and data gradient stack them in each pixel's channels (x or dy with
// N*C channels, the weight forms with N*C columns per tap); the weight
// gradient stacks them as extra images (N*batch images of dy and of x, K being
// the pixels). The terms of a product are (hi, hi), (lo, hi) and, for N = 3,
// (hi, lo): the first operand's low half, then the second's.
//
// Layers with a channel count that is not a multiple of 8 (the RGB layers of
// the model: 3 channels) run the TF32 convolutions instead: their GEMMs are
// too thin for a 16-byte chunk per row, they are bound by the bytes of their
// wide side, which TF32 reads as it is while BF16 would add a conversion pass
// (measured slower per op). Which path a layer takes depends on
// its weight shape only, so a weight's prepared forms always belong to one.
#include <cuda_bf16.h>

#include <algorithm>
#include <mutex>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "runtime_launch.cuh"
#include "runtime_ops.hpp"
#include "tf32_convolutions.hpp"
#include "v4_bf16_copies.hpp"
#include "v4_epilogues.cuh"
#include "v4_igemm.cuh"
#include "v4_pooled_conv.hpp"
#include "v4_side_by_side.hpp"
#include "v4_tensor_maps.hpp"
#include "v4_tma_igemm.cuh"
#include "v4_upsampled_conv.hpp"
#include "v4_weight_forms.hpp"

namespace cae_v4 {

// v4 is built on the shared runtime (plugins/common/cuda/runtime): its context,
// tensors, launches, scratch, column cache, side stream and column sums.
using namespace cae_cuda;
// What v4 takes from the TF32 convolutions it shares with v3
// (plugins/common/cuda/tf32_conv, see README.md): those of the narrow layers
// and the tap sum of the per-tap forward.
using cae_tf32_conv::tap_sum;
using cae_tf32_conv::tf32_conv2d_backward;
using cae_tf32_conv::tf32_conv2d_forward;

namespace {

constexpr int kRowPadding = 256;  // the widest tile: prepared rows never need a bounds check

int64_t round_up(int64_t value, int64_t to) { return (value + to - 1) / to * to; }

// Which BF16 terms of an FP32 operand the GEMMs multiply (option bf16-terms):
// bit j of a mask set means term j is the low half of the value, clear the
// high half. The first operand is the activation or gradient stacked in
// channels (x forward, dy data gradient; dy in the weight gradient), the
// second the weights (x in the weight gradient).
struct Terms {
  int count;
  unsigned first_low_mask, second_low_mask;
};
Terms operand_terms(const Context& ctx) {
  switch (ctx.tuning.bf16_terms) {
    case 3:
      return {3, 0b010, 0b100};  // (hi, hi) + (lo, hi) + (hi, lo)
    case 2:
      return {2, 0b10, 0b00};  // (hi, hi) + (lo, hi)
    default:
      return {1, 0, 0};
  }
}

// Term j of v: its BF16 high half, or what that leaves (rounded to BF16 when
// packed). An infinite high half leaves 0, not Inf - Inf = NaN, so infinities
// multiply as they do with one term.
__device__ __forceinline__ float term_of(float v, unsigned low_mask, int j) {
  if (((low_mask >> j) & 1u) == 0) return v;
  const float high = __bfloat162float(__float2bfloat16_rn(v));
  return isinf(high) ? 0.0f : v - high;
}

// The three prepared weight forms, one allocation: forward Wf[o][t*S*C+j*C+c],
// data gradient Wd[c][t*S*O+j*O+o], taps Wt[t*O+o][j*C+c], for the S terms j
// (S = 1: Wf[o][t*C+c], Wd[c][t*O+o], Wt[t*O+o][c]).
struct WeightForms {
  int64_t forward_rows, forward_ld, data_rows, data_ld, taps_rows, taps_ld;
  WeightForms(const cae_plugin::ConvDims& d, int terms)
      : forward_rows(round_up(d.O, kRowPadding)),
        forward_ld(round_up(d.K * d.K * terms * d.C, kTileK)),
        data_rows(round_up(d.C, kRowPadding)),
        data_ld(round_up(d.K * d.K * terms * d.O, kTileK)),
        taps_rows(round_up(d.K * d.K * d.O, kRowPadding)),
        taps_ld(round_up(terms * d.C, kTileK)) {}
  int64_t forward_count() const { return forward_rows * forward_ld; }
  int64_t data_count() const { return data_rows * data_ld; }
  int64_t count() const { return forward_count() + data_count() + taps_rows * taps_ld; }
};

// The forward pass multiplies per-tap outputs when there are few outputs.
bool taps_forward(const cae_plugin::ConvDims& d) { return d.K > 1 && 4 * d.O <= d.C; }

// One layer's weights for prepare_weight_forms_kernel: where its two forms go.
struct WeightFormsJob {
  const float* w;
  int O, C, taps;
  bool per_tap;
  __nv_bfloat16* forward_form;  // Wf, or Wt for a per-tap forward
  int forward_ld;
  __nv_bfloat16* data_form;  // Wd
  int data_ld;
  int first;  // its first element among all the launch's jobs' elements
};

constexpr int kMaxWeightFormsJobs = 8;

// The layers of one launch, by value in its parameters.
struct WeightFormsJobs {
  WeightFormsJob job[kMaxWeightFormsJobs];
  int count = 0;
  int total = 0;  // elements: 2 * O * taps * C per job
};

// Writes the two forms each layer multiplies, element by element of w: its
// forward form (Wf, or Wt for a per-tap forward) and the data-gradient form
// Wd. Only the terms of the O*C*taps elements each form takes from w: the rows
// and columns that pad a form are zero from its allocation on, and the third
// form is not written (a third of the work, with the padding two thirds, before).
// Several layers in one launch: a graph prepares all of its layers' forms
// at once, beside its first layer (v4_graph_fusion.cpp).
__global__ void prepare_weight_forms_kernel(const WeightFormsJobs jobs, int terms,
                                            unsigned low_mask) {
  begin_after_prior_kernels();
  for (int g = blockIdx.x * blockDim.x + threadIdx.x; g < jobs.total; g += gridDim.x * blockDim.x) {
    int k = 0;
    while (k + 1 < jobs.count && g >= jobs.job[k + 1].first) ++k;
    const WeightFormsJob& job = jobs.job[k];
    const int e = g - job.first, O = job.O, C = job.C, taps = job.taps;
    const int count = O * taps * C;  // terms * count < 2^30 (check_limits)
    // Where term 0 of this element goes, and how far apart its terms lie.
    __nv_bfloat16* out;
    int64_t at;
    int term_step;
    float value;
    if (e < count && !job.per_tap) {  // Wf[o][t*S*C+j*C+c] = term j of w[o][t][c]
      const int o = e / (taps * C), tap = e / C % taps, c = e % C;
      out = job.forward_form, at = int64_t(o) * job.forward_ld + tap * terms * C + c;
      term_step = C;
      value = job.w[e];
    } else if (e < count) {  // Wt[t*O+o][j*C+c]
      const int r = e / C, c = e % C, tap = r / O, o = r % O;
      out = job.forward_form, at = int64_t(r) * job.forward_ld + c, term_step = C;
      value = job.w[(int64_t(o) * taps + tap) * C + c];
    } else {  // Wd[c][t*S*O+j*O+o]
      const int f = e - count, c = f / (taps * O), q = f % (taps * O), tap = q / O, o = q % O;
      out = job.data_form, at = int64_t(c) * job.data_ld + tap * terms * O + o, term_step = O;
      value = job.w[(int64_t(o) * taps + tap) * C + c];
    }
    for (int j = 0; j < terms; ++j) {
      out[at + int64_t(j) * term_step] = __float2bfloat16_rn(term_of(value, low_mask, j));
    }
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
  begin_after_prior_kernels();
  const int64_t slice = int64_t(rows) * cols;
  for (int64_t e = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; e < slice;
       e += int64_t(gridDim.x) * blockDim.x) {
    float total = 0.0f;
    for (int s = 0; s < splits; ++s) total += partial[s * slice + e];
    const int r = int(e / cols), k = int(e % cols);
    int64_t at = 0;
    switch (layout) {
      case GradientLayout::kOutputsByTapChannels:
        at = e;
        break;
      case GradientLayout::kTapChannelsByOutputs:
        at = int64_t(k) * taps * C + r;
        break;
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

// out = BF16 copy of in (count % 4 == 0; both 16-byte aligned): the operands of
// the multi-stage GEMM, which copies BF16 chunks as they are.
__global__ void to_bf16_kernel(const float4* in, uint2* out, int64_t count4) {
  begin_after_prior_kernels();
  for (int64_t e = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; e < count4;
       e += int64_t(gridDim.x) * blockDim.x) {
    const float4 v = in[e];
    out[e] = make_uint2(pack_bf16(v.x, v.y), pack_bf16(v.z, v.w));
  }
}

// out[(outer*S + j)*inner + i] = term j of in[outer*inner + i], for the S
// terms (inner % 4 == 0, count % 4 == 0; 16-byte aligned). inner = the
// channels stacks the terms in each pixel's channels; inner = the whole
// tensor stacks whole copies, as extra images.
__global__ void terms_to_bf16_kernel(const float4* in, uint2* out, int64_t count4, int64_t inner4,
                                     int terms, unsigned low_mask) {
  begin_after_prior_kernels();
  for (int64_t e = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; e < count4;
       e += int64_t(gridDim.x) * blockDim.x) {
    const float4 v = in[e];
    const int64_t outer = e / inner4, i = e % inner4;
    for (int j = 0; j < terms; ++j) {
      out[(outer * terms + j) * inner4 + i] =
          make_uint2(pack_bf16(term_of(v.x, low_mask, j), term_of(v.y, low_mask, j)),
                     pack_bf16(term_of(v.z, low_mask, j), term_of(v.w, low_mask, j)));
    }
  }
}

unsigned flat_blocks(int64_t count) {
  return static_cast<unsigned>(std::min<int64_t>((count + 255) / 256, 65535));
}

// With several BF16 terms the weight gradient's operands hold terms * N
// images and the weight forms terms * C or O columns per tap.
void check_limits(const cae_plugin::ConvDims& d, int terms) {
  const int64_t pixels = d.N * d.H * d.W;
  const int64_t widest = std::max(d.C, d.O) * d.K * d.K;
  const int64_t limit = int64_t(1) << 30;
  if (terms * pixels * std::max(d.C, d.O) >= limit ||
      terms * widest * std::max(d.C, d.O) >= limit || terms * pixels + kRowPadding >= limit) {
    cae_plugin::fail(CAE_STATUS_UNSUPPORTED,
                     "conv2d: v4 indexes pixels, channels and weights in 31 bits (" +
                         std::to_string(pixels) + " pixels x " +
                         std::to_string(std::max(d.C, d.O)) + " channels" +
                         (terms > 1 ? " x " + std::to_string(terms) + " BF16 terms)" : ")"));
  }
}

// The storage of w's BF16 forms (allocated and zeroed on first use) and the
// job that fills it.
WeightFormsJob weight_forms_job(Context& ctx, const cae_plugin::ConvDims& d, cae_tensor_s& w,
                                __nv_bfloat16*& data) {
  const Terms terms = operand_terms(ctx);
  const WeightForms forms(d, terms.count);
  const size_t bytes = size_t(forms.count()) * sizeof(__nv_bfloat16);
  // A tensor's forms keep one layout (its dimensions are fixed), so padding
  // zeroed at the allocation stays zero.
  bool allocated = false;
  data = static_cast<__nv_bfloat16*>(
      derived_storage(w.prepared_weights, bytes, ctx.memory, "v4 BF16 conv weights", &allocated));
  if (allocated) CAE_CUDA_CHECK(cudaMemsetAsync(data, 0, bytes, ctx.stream));
  const bool per_tap = taps_forward(d);
  WeightFormsJob job{};
  job.w = w.data;
  job.O = int(d.O);
  job.C = int(d.C);
  job.taps = int(d.K * d.K);
  job.per_tap = per_tap;
  job.forward_form = per_tap ? data + forms.forward_count() + forms.data_count() : data;
  job.forward_ld = int(per_tap ? forms.taps_ld : forms.forward_ld);
  job.data_form = data + forms.forward_count();
  job.data_ld = int(forms.data_ld);
  return job;
}

// Fills the jobs' forms, up to kMaxWeightFormsJobs layers per launch, and
// marks each layer's forms current for its weights' version.
void launch_weight_forms(Context& ctx,
                         const std::vector<std::pair<WeightFormsJob, cae_tensor_s*>>& jobs) {
  const Terms terms = operand_terms(ctx);
  for (size_t first = 0; first < jobs.size(); first += kMaxWeightFormsJobs) {
    WeightFormsJobs batch;
    const size_t end = std::min(jobs.size(), first + kMaxWeightFormsJobs);
    for (size_t i = first; i < end; ++i) {
      WeightFormsJob job = jobs[i].first;
      job.first = batch.total;
      batch.job[batch.count++] = job;
      batch.total += 2 * job.O * job.taps * job.C;
      jobs[i].second->prepared_weights.version = 0;  // never stale if the launch fails
    }
    launch(ctx, "v4 prepare_weight_forms_kernel", prepare_weight_forms_kernel,
           flat_blocks(batch.total), 256, 0, batch, terms.count, terms.second_low_mask);
    for (size_t i = first; i < end; ++i) {
      jobs[i].second->prepared_weights.version = jobs[i].second->version;
    }
  }
}

// The BF16 weight forms of w, derived when w changed since they were made.
const __nv_bfloat16* weight_forms(Context& ctx, const cae_plugin::ConvDims& d, cae_tensor_s& w) {
  __nv_bfloat16* data = nullptr;
  const WeightFormsJob job = weight_forms_job(ctx, d, w, data);
  if (w.prepared_weights.version != w.version) launch_weight_forms(ctx, {{job, &w}});
  return data;
}

// A GEMM kernel's dynamic shared memory exceeds the default limit, so it is
// opted in before its first launch on a device (the attribute belongs to the
// device). Once per kernel and device: contexts on several threads launch the
// same kernels, and the lock keeps a launch from overtaking the opt-in.
void opt_in_shared_memory(const Context& ctx, const void* kernel, size_t shared_bytes) {
  static std::mutex lock;
  static std::set<std::pair<const void*, int>> opted_in;
  const std::lock_guard<std::mutex> hold(lock);
  if (opted_in.count({kernel, ctx.device})) return;
  CAE_CUDA_CHECK(
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(shared_bytes)));
  opted_in.insert({kernel, ctx.device});
}

// Launches one of the GEMM kernels over the tiles of an M x N product, the K
// tiles split `per_split` at a time over the grid's z.
template <int BN, class Kernel, class... Arguments>
void launch_tiles(Context& ctx, Kernel* kernel, size_t shared_bytes, int64_t M, int64_t N,
                  int k_tiles, int per_split, const char* what, const Arguments&... arguments) {
  opt_in_shared_memory(ctx, reinterpret_cast<const void*>(kernel), shared_bytes);
  const dim3 grid(unsigned((M + kTileM - 1) / kTileM), unsigned((N + BN - 1) / BN),
                  unsigned((k_tiles + per_split - 1) / per_split));
  launch(ctx, what, kernel, grid, kBlockThreads, shared_bytes, arguments..., k_tiles, per_split);
}

template <int BN, class A, class B, class E>
void launch_width(Context& ctx, const A& a, const B& b, const E& e, int64_t M, int64_t N,
                  int k_tiles, int per_split, const char* what) {
  using Shape = TileShape<BN, Stages<BN>::value>;
  launch_tiles<BN>(ctx, igemm_kernel<BN, A, B, E>, Shape::shared_bytes, M, N, k_tiles, per_split,
                   what, a, b, e);
}

// Writes the BF16 copy of count floats (count % 8 == 0) into out.
void convert_to_bf16(Context& ctx, const float* in, __nv_bfloat16* out, int64_t count) {
  launch(ctx, "v4 to_bf16_kernel", to_bf16_kernel, flat_blocks(count / 4), 256, 0,
         reinterpret_cast<const float4*>(in), reinterpret_cast<uint2*>(out), count / 4);
}

// Writes the S > 1 BF16 terms of count floats into out, `inner` floats of
// each term side by side (see terms_to_bf16_kernel). One term is
// convert_to_bf16's plain copy.
void convert_terms_to_bf16(Context& ctx, const float* in, __nv_bfloat16* out, int64_t count,
                           int64_t inner, int terms, unsigned low_mask) {
  launch(ctx, "v4 terms_to_bf16_kernel", terms_to_bf16_kernel, flat_blocks(count / 4), 256, 0,
         reinterpret_cast<const float4*>(in), reinterpret_cast<uint2*>(out), count / 4, inner / 4,
         terms, low_mask);
}

// The BF16 NHWC copy of x. A layer's forward pass writes it into the
// context's column cache, tagged with x's version (v4_bf16_copies.hpp); its
// backward pass finds it still current and converts nothing (a batch-256
// step converted the largest activations twice). Where the fused kernel that
// wrote x made the copy beside it, the forward pass converts nothing either.
// Without a slot (cache off or full) the copy goes to `fallback`, scratch
// the caller carved.
// With S BF16 terms the forward pass reads x's first-operand terms side by
// side in each pixel (S*C channels) and the backward pass x's second-operand
// terms as extra images: nothing to share, so the copy goes to `fallback`
// (S*C channels of scratch) and takes no room in the cache.
const __nv_bfloat16* bf16_copy_of_x(Context& ctx, const cae_plugin::ConvDims& d,
                                    const cae_tensor_s& x, __nv_bfloat16* fallback) {
  const Terms terms = operand_terms(ctx);
  const int64_t count = d.N * d.H * d.W * d.C;
  if (terms.count > 1) {
    convert_terms_to_bf16(ctx, x.data, fallback, count, d.C, terms.count, terms.first_low_mask);
    return fallback;
  }
  Bf16Copy copy = bf16_copy_for_writing(ctx, CopyOf::activation, d.N, d.C, d.H, d.W);
  if (copy.data == nullptr) {
    convert_to_bf16(ctx, x.data, fallback, count);
    return fallback;
  }
  if (!holds(copy, x)) {
    begin_refill(copy);
    convert_to_bf16(ctx, x.data, copy.data, count);
    tag(copy, x);
  }
  return copy.data;
}

// The narrowest tile that covers N (wide N: 128-wide tiles side by side).
int tile_width(int64_t N) { return N <= 16 ? 16 : N <= 32 ? 32 : N <= 64 ? 64 : 128; }

// Forward and data-gradient GEMMs have no split-K: when M is short (small
// images, small batches), narrower tiles give every multiprocessor a block.
int filling_width(const Context& ctx, int64_t M, int64_t N) {
  int width = tile_width(N);
  const int64_t row_tiles = (M + kTileM - 1) / kTileM;
  while (width > 32 && row_tiles * ((N + width - 1) / width) < ctx.multiprocessors) width /= 2;
  return width;
}

template <class A, class B, class E>
void launch_gemm(Context& ctx, int width, const A& a, const B& b, const E& e, int64_t M, int64_t N,
                 int k_tiles, int per_split, const char* what) {
  switch (width) {
    case 16:
      return launch_width<16>(ctx, a, b, e, M, N, k_tiles, per_split, what);
    case 32:
      return launch_width<32>(ctx, a, b, e, M, N, k_tiles, per_split, what);
    case 64:
      return launch_width<64>(ctx, a, b, e, M, N, k_tiles, per_split, what);
    default:
      return launch_width<128>(ctx, a, b, e, M, N, k_tiles, per_split, what);
  }
}

// The box of whole image rows (or of whole small images) that holds `pixels`
// consecutive pixels of the NHWC batch, when there is one: the shape of every
// TMA box over an image tensor.
struct ImageBox {
  bool fits;
  int rows, images;
};
ImageBox image_box(const cae_plugin::ConvDims& d, int64_t pixels) {
  const int64_t per_image = d.H * d.W;
  if (pixels % d.W != 0) return {false, 0, 0};
  if (per_image % pixels == 0) return {true, int(pixels / d.W), 1};
  if (pixels % per_image == 0 && pixels / per_image <= d.N) {
    return {true, int(d.H), int(pixels / per_image)};
  }
  return {false, 0, 0};
}

// The forward and data-gradient boxes (TapShiftedRows): a tile's 128 pixels,
// when the gathered tensor's channels come in 64s.
ImageBox tap_box_shape(const cae_plugin::ConvDims& d, int64_t channels) {
  if (channels % kTileK != 0) return {false, 0, 0};
  return image_box(d, kTileM);
}

// The TMA weight gradient's boxes (TapShiftedPixels): a K tile of 64 pixels,
// dy's channels in boxes of 64, and an N tile of `width` channels of x that
// stays inside one tap.
struct PixelBoxShape {
  bool fits;
  int rows, images, width;
};
PixelBoxShape pixel_box_shape(const cae_plugin::ConvDims& d) {
  if (d.C % 64 != 0 || d.O % 64 != 0) return {false, 0, 0, 0};
  const ImageBox box = image_box(d, kTileK);
  return {box.fits, box.rows, box.images, d.C % 128 == 0 ? 128 : 64};
}

template <int BN, class Loads, class E>
void launch_tma(Context& ctx, const CUtensorMap& a_map, const CUtensorMap& b_map,
                const Loads& loads, const E& e, int64_t M, int64_t N, int k_tiles, int per_split,
                const char* what) {
  launch_tiles<BN>(ctx, tma_igemm_kernel<BN, Loads, E>, TmaTileShape<BN>::shared_bytes, M, N,
                   k_tiles, per_split, what, a_map, b_map, loads, e);
}

// out[pixel][n] = sum over (tap, c) of src[pixel shifted by sign * tap][c] *
// weights[n][tap * channels + c]: the forward (src = x) and data-gradient
// (src = dy, sign -1) GEMMs. weights: weight_rows (a multiple of 256) rows of
// weight_ld BF16 values, the K order (tap, channel).
template <class E>
void gathering_gemm(Context& ctx, const cae_plugin::ConvDims& d, const ConvGeometry& g,
                    const __nv_bfloat16* src, int channels, int sign, const __nv_bfloat16* weights,
                    int64_t weight_rows, int64_t weight_ld, const E& e, int64_t N,
                    const char* what) {
  const int64_t M = g.pixels;
  const int width = filling_width(ctx, M, N);
  const ImageBox box = tap_box_shape(d, channels);
  if (box.fits && width >= 32) {
    const CUtensorMap a_map = image_box_map(src, d.N, d.H, d.W, channels, box.rows, box.images);
    const TapShiftedRows rows{int(d.K), sign, channels / kTileK, int(d.H), int(d.W)};
    const int k_tiles = int(weight_ld / kTileK);
    auto b_map = [&](int box_rows) {
      return matrix_box_map(weights, weight_rows, weight_ld, box_rows);
    };
    switch (width) {
      case 32:
        return launch_tma<32>(ctx, a_map, b_map(32), rows, e, M, N, k_tiles, k_tiles, what);
      case 64:
        return launch_tma<64>(ctx, a_map, b_map(64), rows, e, M, N, k_tiles, k_tiles, what);
      default:
        return launch_tma<128>(ctx, a_map, b_map(128), rows, e, M, N, k_tiles, k_tiles, what);
    }
  }
  const PixelsByTapChannels a{
      src, g, channels, int(d.K * d.K) * channels, sign, FastDivide(uint32_t(channels))};
  const PaddedRows b{weights, int(weight_ld)};
  const int k_tiles = int(weight_ld / kTileK);
  launch_gemm(ctx, width, a, b, e, M, N, k_tiles, k_tiles, what);
}

// How the K tiles of a weight gradient are cut: as many slices as keep the
// grid within one wave of two blocks per multiprocessor (a few blocks more
// would run as a second wave of their own: 270 blocks for 264 places
// measured slower than 264), at least 4 K tiles each. count slices of per_split tiles (the
// last may be shorter) cover all k_tiles; the grid has count slices.
// Another number of blocks per multiprocessor (kSplitKBlocksPerSm) measured
// slower: 1 and 3 against 2 at batch 64 and 256 (one block: half
// the partial sums, but the GEMM's own time grows more than the data gradient
// beside it gains).
constexpr int kSplitKBlocksPerSm = 2;
struct KSplit {
  int per_split, count;
};
KSplit split_k(const Context& ctx, int64_t M, int64_t N, int width, int k_tiles) {
  const int64_t tiles = ((M + kTileM - 1) / kTileM) * ((N + width - 1) / width);
  const int64_t wanted = kSplitKBlocksPerSm * int64_t(ctx.multiprocessors) / tiles;
  const int splits = int(std::max<int64_t>(1, std::min<int64_t>(wanted, k_tiles / 4)));
  const int per_split = (k_tiles + splits - 1) / splits;
  return KSplit{per_split, (k_tiles + per_split - 1) / per_split};
}

ConvGeometry geometry(const cae_plugin::ConvDims& d) {
  return make_geometry(int(d.H), int(d.W), int(d.K), int(d.N * d.H * d.W));
}

}  // namespace

void conv2d_forward(Context& ctx, const cae_plugin::ConvDims& d, const cae_tensor_s& x,
                    cae_tensor_s& w, const float* b, float* y, bool relu) {
  // A thin input (the image's channels) on v4's own kernel, as v4's graphs
  // compute it fused with its max-pool (v4_pooled_conv.hpp): both paths make
  // the same choices.
  if (thin_conv_supported(d)) return thin_conv_forward(ctx, d, x.data, w.data, b, y, relu);
  if (narrow_conv(d)) return tf32_conv2d_forward(ctx, d, x, w, b, y, relu);
  const int terms = operand_terms(ctx).count;
  check_limits(d, terms);
  const WeightForms forms(d, terms);
  const __nv_bfloat16* prepared = weight_forms(ctx, d, w);
  const ConvGeometry g = geometry(d);
  const int taps = int(d.K * d.K), O = int(d.O);
  const int C = terms * int(d.C);  // the channels of x's stacked BF16 copy
  const bool by_taps = taps_forward(d);
  const int64_t tap_width = int64_t(taps) * O;

  // One scratch request per op: the BF16 copy of x, then the per-tap outputs.
  ScratchLayout carve;
  const size_t at_x = carve.add(bf16_floats(int64_t(g.pixels) * C));
  const size_t at_taps = by_taps ? carve.add(int64_t(g.pixels) * tap_width) : 0;
  float* scratch = ctx.scratch.get(carve.total());
  const __nv_bfloat16* xb =
      bf16_copy_of_x(ctx, d, x, reinterpret_cast<__nv_bfloat16*>(scratch + at_x));

  if (by_taps) {
    const ConvGeometry pointwise = make_geometry(g.H, g.W, 1, g.pixels);
    const PixelsByTapChannels a{xb, pointwise, C, C, +1, FastDivide(uint32_t(C))};
    const PaddedRows bt{prepared + forms.forward_count() + forms.data_count(), int(forms.taps_ld)};
    float* tap_outputs = scratch + at_taps;
    const MatrixStore out{tap_outputs, g.pixels, int(tap_width), 0};
    const int k_tiles = int(forms.taps_ld / kTileK);
    launch_gemm(ctx, tile_width(tap_width), a, bt, out, g.pixels, tap_width, k_tiles, k_tiles,
                "v4 conv per-tap GEMM");
    tap_sum(ctx, d, tap_outputs, b, relu, y);  // the TF32 convolutions'
    return;
  }
  const BiasReluStore out{y, b, g.pixels, O, relu};
  gathering_gemm(ctx, d, g, xb, C, +1, prepared, forms.forward_rows, forms.forward_ld, out, O,
                 "v4 conv forward GEMM");
}

bool upsampled_gemm_forward(Context& ctx, const cae_plugin::ConvDims& d, const float* t,
                            const float* w, const float* b, float* y) {
  // fp32-conv asks for the thin layers in FP32: the FP32 kernel then.
  if (operand_terms(ctx).count != 1 || ctx.tuning.fp32_convolutions || d.C % 8 != 0 || d.O > 4 ||
      d.K != 3) {
    return false;
  }
  const int64_t h = d.H / 2, width = d.W / 2, small = d.N * h * width;
  const int C = int(d.C);
  const int64_t ld = round_up(int64_t(9) * C, kTileK);
  // One scratch request: t's BF16 copy, then the combined weights (rows
  // padded as the prepared weights are, so no tile reads past them).
  ScratchLayout carve;
  const size_t at_t = carve.add(bf16_floats(small * C));
  const size_t at_w = carve.add(bf16_floats(kRowPadding * ld));
  float* scratch = ctx.scratch.get(carve.total());
  auto* tb = reinterpret_cast<__nv_bfloat16*>(scratch + at_t);
  auto* combined = reinterpret_cast<__nv_bfloat16*>(scratch + at_w);
  convert_to_bf16(ctx, t, tb, small * C);
  upsampled_combined_weights(ctx, d, w, kRowPadding, ld, combined);
  const PixelShuffleStore out{y, b, int(small), int(h), int(width), int(d.O)};
  const int k_tiles = int(ld / kTileK);
  const char* what = "v4 upsampled conv forward GEMM";
  // With 16 columns, each 128-pixel tile is read once per tap and channel
  // block for few products: the copy engine's boxes (as the middle layers'
  // forward) feed it; the cp.async GEMM, whose threads compute every
  // element's address, measured 146 us at batch 256 against the FP32
  // kernel's 175 (the BF16 copy and the combined weights add 30).
  const cae_plugin::ConvDims small_dims{d.N, d.C, h, width, 4 * d.O, 3};
  const ImageBox box = tap_box_shape(small_dims, C);
  if (box.fits) {
    const CUtensorMap a_map = image_box_map(tb, d.N, h, width, C, box.rows, box.images);
    const CUtensorMap b_map = matrix_box_map(combined, kRowPadding, ld, 16);
    const TapShiftedRows loads{3, +1, C / kTileK, int(h), int(width)};
    launch_tma<16>(ctx, a_map, b_map, loads, out, small, 4 * d.O, k_tiles, k_tiles, what);
    return true;
  }
  const ConvGeometry g = make_geometry(int(h), int(width), 3, int(small));
  const PixelsByTapChannels a{tb, g, C, 9 * C, +1, FastDivide(uint32_t(C))};
  const PaddedRows rows{combined, int(ld)};
  launch_gemm(ctx, 16, a, rows, out, small, 4 * d.O, k_tiles, k_tiles, what);
  return true;
}

namespace {

// What both weight-gradient paths start from, carved from one scratch
// request: the BF16 NHWC copies of dy and x, and `partial_floats` of split-K
// partial sums. With one BF16 term, one copy of dy serves both GEMMs and x's
// copy is the forward pass's. With S terms the data gradient reads dy's terms
// side by side in its channels (S*O), and the weight gradient reads dy's and
// x's terms as S*N images, `images` (= S*N) of each. With one term, dy's
// copy is the one the kernel that wrote dy made beside it when there is one
// current (v4_bf16_copies.hpp), else converted here.
struct BackwardOperands {
  const __nv_bfloat16* dy_by_channels;  // the data gradient's (none when dx is not wanted)
  const __nv_bfloat16* dyb;             // the weight gradient's
  const __nv_bfloat16* xb;              // the weight gradient's
  float* partial;
  int64_t images;
};

BackwardOperands backward_operands(Context& ctx, const cae_plugin::ConvDims& d,
                                   const cae_tensor_s& x, const cae_tensor_s& dy_tensor,
                                   int64_t partial_floats, bool data_gradient_wanted) {
  const float* dy = dy_tensor.data;
  const Terms terms = operand_terms(ctx);
  const int64_t P = d.N * d.H * d.W, S = terms.count;
  const bool by_channels = S > 1 && data_gradient_wanted;
  // dy's scratch is carved even where the pass that wrote dy made its copy:
  // the request then stays the same whatever the column cache holds, and a
  // graph's first walk sizes the scratch every recorded walk gets.
  ScratchLayout carve;
  const size_t at_dy = carve.add(bf16_floats(S * P * d.O));
  const size_t at_x = carve.add(bf16_floats(S * P * d.C));
  const size_t at_dy_by_channels = by_channels ? carve.add(bf16_floats(S * P * d.O)) : 0;
  const size_t at_partial = carve.add(partial_floats);
  float* scratch = ctx.scratch.get(carve.total());
  auto* dyb = reinterpret_cast<__nv_bfloat16*>(scratch + at_dy);
  auto* x_scratch = reinterpret_cast<__nv_bfloat16*>(scratch + at_x);
  if (S == 1) {
    const Bf16Copy written = bf16_copy_for_reading(ctx, CopyOf::gradient, d.N, d.O, d.H, d.W);
    if (holds(written, dy_tensor)) {
      dyb = written.data;
    } else {
      convert_to_bf16(ctx, dy, dyb, P * d.O);
    }
    return {dyb, dyb, bf16_copy_of_x(ctx, d, x, x_scratch), scratch + at_partial, d.N};
  }
  __nv_bfloat16* dy_by_channels = nullptr;
  if (by_channels) {
    dy_by_channels = reinterpret_cast<__nv_bfloat16*>(scratch + at_dy_by_channels);
    convert_terms_to_bf16(ctx, dy, dy_by_channels, P * d.O, d.O, S, terms.first_low_mask);
  }
  convert_terms_to_bf16(ctx, dy, dyb, P * d.O, P * d.O, S, terms.first_low_mask);
  convert_terms_to_bf16(ctx, x.data, x_scratch, P * d.C, P * d.C, S, terms.second_low_mask);
  return {dy_by_channels, dyb, x_scratch, scratch + at_partial, S * d.N};
}

// The weight gradient's dimensions: its operands' terms are extra images.
cae_plugin::ConvDims with_images(cae_plugin::ConvDims d, int64_t images) {
  d.N = images;
  return d;
}

// What both paths end with: dw from the split partials (in the GEMM's
// layout), db from dy's column sums. Queued after the weight gradient, they
// overlap the data gradient's tail on the side stream (column sums made in
// the pass that converts dy, before the fork, lose that overlap and 2% of a
// batch-64 epoch).
void finish_weight_gradient(Context& ctx, const cae_plugin::ConvDims& d, const float* partial,
                            int splits, int64_t M, int64_t N, GradientLayout layout,
                            const float* dy, float* dw, float* db) {
  const int taps = int(d.K * d.K);
  launch(ctx, "v4 sum_splits_kernel", sum_splits_kernel, flat_blocks(M * N), 256, 0, partial,
         splits, int(M), int(N), layout, int(d.O), taps, int(d.C), dw);
  column_sums(ctx, dy, d.N * d.H * d.W, int(d.O), db);
}

// dx[P][C] = gather(dy, -1)[P][T*O] * Wd[C][T*O]^T, dyb the BF16 NHWC copy of
// dy (its S terms side by side: S*O channels).
void data_gradient(Context& ctx, const cae_plugin::ConvDims& d, const ConvGeometry& g,
                   cae_tensor_s& w, const __nv_bfloat16* dyb, float* dx) {
  const int terms = operand_terms(ctx).count;
  const WeightForms forms(d, terms);
  const __nv_bfloat16* prepared = weight_forms(ctx, d, w) + forms.forward_count();  // Wd
  const MatrixStore out{dx, g.pixels, int(d.C), 0};
  gathering_gemm(ctx, d, g, dyb, terms * int(d.O), -1, prepared, forms.data_rows, forms.data_ld,
                 out, d.C, "v4 conv data-gradient GEMM");
}

// The weight gradient on the TMA GEMM: dW[o][t*C+c] (its own layout) =
// dy^T[O][P] * (x shifted by t)^T[C][P]^T, both operands read as MN-major
// boxes of the BF16 NHWC copies; K = P split so that the grid fills the GPU.
// (With S BF16 terms, K = the pixels of S*N images.)
void boxed_backward(Context& ctx, const cae_plugin::ConvDims& d, const ConvGeometry& g,
                    const PixelBoxShape& box, const cae_tensor_s& x, cae_tensor_s& w,
                    const cae_tensor_s& dy, float* dx, float* dw, float* db) {
  const int taps = int(d.K * d.K), C = int(d.C), O = int(d.O);
  const int64_t P = int64_t(operand_terms(ctx).count) * g.pixels, M = O, N = int64_t(taps) * C;
  const int k_tiles = int((P + kTileK - 1) / kTileK);
  const KSplit split = split_k(ctx, M, N, box.width, k_tiles);
  const BackwardOperands ops =
      backward_operands(ctx, d, x, dy, int64_t(split.count) * M * N, dx != nullptr);
  const SideBySide beside(ctx, dx != nullptr);
  if (dx != nullptr) beside.run([&] { data_gradient(ctx, d, g, w, ops.dy_by_channels, dx); });

  const CUtensorMap a_map = image_box_map(ops.dyb, ops.images, d.H, d.W, O, box.rows, box.images);
  const CUtensorMap b_map = image_box_map(ops.xb, ops.images, d.H, d.W, C, box.rows, box.images);
  const TapShiftedPixels loads{int(d.K), C, int(d.H), int(d.W), box.width / 64};
  const MatrixStore out{ops.partial, int(M), int(N), M * N};
  if (box.width == 128) {
    launch_tma<128>(ctx, a_map, b_map, loads, out, M, N, k_tiles, split.per_split,
                    "v4 conv weight-gradient TMA GEMM");
  } else {
    launch_tma<64>(ctx, a_map, b_map, loads, out, M, N, k_tiles, split.per_split,
                   "v4 conv weight-gradient TMA GEMM");
  }
  finish_weight_gradient(ctx, d, ops.partial, split.count, M, N,
                         GradientLayout::kOutputsByTapChannels, dy.data, dw, db);
}

// The weight gradient on the cp.async GEMM, for shapes no box fits.
void chunked_backward(Context& ctx, const cae_plugin::ConvDims& d, const ConvGeometry& g,
                      const cae_tensor_s& x, cae_tensor_s& w, const cae_tensor_s& dy, float* dx,
                      float* dw, float* db) {
  const int taps = int(d.K * d.K), C = int(d.C), O = int(d.O);

  // Gather the tensor with fewer channels (it is read T times); the wider
  // operand is the GEMM's M. With S BF16 terms, K = the pixels of S*N images.
  const ConvGeometry gw = geometry(with_images(d, operand_terms(ctx).count * d.N));
  const int k_tiles = (gw.pixels + kTileK - 1) / kTileK;
  const bool gather_x = C <= O;
  const int gathered_count = taps * (gather_x ? C : O), plain_count = gather_x ? O : C;
  const bool gathered_rows = gathered_count >= plain_count;
  const int64_t M = gathered_rows ? gathered_count : plain_count;
  const int64_t N = gathered_rows ? plain_count : gathered_count;
  const GradientLayout layout = gather_x ? (gathered_rows ? GradientLayout::kTapChannelsByOutputs
                                                          : GradientLayout::kOutputsByTapChannels)
                                         : (gathered_rows ? GradientLayout::kTapOutputsByChannels
                                                          : GradientLayout::kChannelsByTapOutputs);
  const KSplit split = split_k(ctx, M, N, tile_width(N), k_tiles);
  const BackwardOperands ops =
      backward_operands(ctx, d, x, dy, int64_t(split.count) * M * N, dx != nullptr);
  const FastDivide by_C{uint32_t(C)}, by_O{uint32_t(O)};
  const SideBySide beside(ctx, dx != nullptr);
  if (dx != nullptr) beside.run([&] { data_gradient(ctx, d, g, w, ops.dy_by_channels, dx); });

  const TapChannelsByPixels gathered =
      gather_x ? TapChannelsByPixels{ops.xb, gw, C, taps * C, +1, by_C}
               : TapChannelsByPixels{ops.dyb, gw, O, taps * O, -1, by_O};
  const ChannelsByPixels plain =
      gather_x ? ChannelsByPixels{ops.dyb, O, gw.pixels} : ChannelsByPixels{ops.xb, C, gw.pixels};
  const MatrixStore out{ops.partial, int(M), int(N), M * N};
  if (gathered_rows) {
    launch_gemm(ctx, tile_width(N), gathered, plain, out, M, N, k_tiles, split.per_split,
                "v4 conv weight-gradient GEMM");
  } else {
    launch_gemm(ctx, tile_width(N), plain, gathered, out, M, N, k_tiles, split.per_split,
                "v4 conv weight-gradient GEMM");
  }
  finish_weight_gradient(ctx, d, ops.partial, split.count, M, N, layout, dy.data, dw, db);
}

}  // namespace

void conv2d_backward(Context& ctx, const cae_plugin::ConvDims& d, const cae_tensor_s& x,
                     cae_tensor_s& w, const cae_tensor_s& dy, float* dx, float* dw, float* db) {
  if (narrow_conv(d)) return tf32_conv2d_backward(ctx, d, x, w, dy.data, dx, dw, db);
  check_limits(d, operand_terms(ctx).count);
  const ConvGeometry g = geometry(d);
  const PixelBoxShape box = pixel_box_shape(d);
  if (box.fits) return boxed_backward(ctx, d, g, box, x, w, dy, dx, dw, db);
  chunked_backward(ctx, d, g, x, w, dy, dx, dw, db);
}

bool multiplies_weight_forms(const cae_plugin::ConvDims& d) {
  return !thin_conv_supported(d) && !narrow_conv(d);
}

void prepare_weight_forms(Context& ctx, const std::vector<LayerWeights>& layers) {
  std::vector<std::pair<WeightFormsJob, cae_tensor_s*>> stale;
  for (const LayerWeights& layer : layers) {
    check_limits(layer.dims, operand_terms(ctx).count);
    __nv_bfloat16* data = nullptr;
    const WeightFormsJob job = weight_forms_job(ctx, layer.dims, *layer.w, data);
    if (layer.w->prepared_weights.version != layer.w->version) stale.emplace_back(job, layer.w);
  }
  if (!stale.empty()) launch_weight_forms(ctx, stale);
}

}  // namespace cae_v4

// The runtime's convolutions (runtime_ops.hpp): in the v4 library, v4's.
namespace cae_cuda {

void conv2d_forward(Context& ctx, const cae_plugin::ConvDims& d, const cae_tensor_s& x,
                    cae_tensor_s& w, const float* b, float* y, bool relu) {
  cae_v4::conv2d_forward(ctx, d, x, w, b, y, relu);
}

void conv2d_backward(Context& ctx, const cae_plugin::ConvDims& d, const cae_tensor_s& x,
                     cae_tensor_s& w, const cae_tensor_s& dy, float* dx, float* dw, float* db) {
  cae_v4::conv2d_backward(ctx, d, x, w, dy, dx, dw, db);
}

}  // namespace cae_cuda
