// conv2d forward and backward on the GPU: the steps of tf32_conv_steps.cpp run
// by an executor that launches the kernels of tf32_conv_kernels.cuh and cuBLASLt, plus the reuse of
// im2col columns and rearranged weights across calls.
#include <string>
#include <type_traits>

#include "runtime_launch.cuh"
#include "runtime_ops.hpp"
#include "short_k_product.hpp"
#include "tf32_conv_steps.hpp"
#include "tf32_convolutions.hpp"

namespace cae_tf32_conv {

namespace {

constexpr int64_t kIndexLimit = int64_t(1) << 31;

template <class F>
void with_kernel_size(int64_t k, F&& f) {
  switch (k) {
    case 1:
      f(std::integral_constant<int, 1>{});
      break;
    case 3:
      f(std::integral_constant<int, 3>{});
      break;
    case 5:
      f(std::integral_constant<int, 5>{});
      break;
    case 7:
      f(std::integral_constant<int, 7>{});
      break;
    default:
      cae_plugin::fail(CAE_STATUS_UNSUPPORTED,
                       "conv2d: kernel size " + std::to_string(k) +
                           ": the TF32 convolutions (v3's, and v4's layers of few channels) "
                           "have code for sizes 1, 3, 5 and 7");
  }
}

bool vectorizable(int64_t channels, int64_t ld) { return channels % 4 == 0 && ld % 4 == 0; }

// Gathers with short rows (conv1's 3 input channels, conv5's 3 output
// channels: 28 floats) one pixel per thread: the block builds its rows in
// shared memory and writes them out as one contiguous, coalesced range.
constexpr unsigned kNarrowPixels = 128, kNarrowRow = 32;

template <int K>
__global__ void __launch_bounds__(kNarrowPixels)
    narrow_gather_kernel(uint32_t pixels, const TapGather<K, 1> body) {
  __shared__ float4 staged[kNarrowPixels * kNarrowRow / 4];
  begin_after_prior_kernels();
  float* rows = reinterpret_cast<float*>(staged);
  const uint32_t ld = static_cast<uint32_t>(body.ld);
  const uint32_t first = blockIdx.x * kNarrowPixels;
  const uint32_t count = min(kNarrowPixels, pixels - first);
  if (threadIdx.x < count) {
    const Pixel at = locate(body.grid, first + threadIdx.x);
    for (uint32_t item = 0; item < ld; ++item)
      rows[threadIdx.x * ld + item] = body.element(at, item);
  }
  __syncthreads();
  float4* out = reinterpret_cast<float4*>(body.dst + static_cast<int64_t>(first) * ld);
  for (uint32_t q = threadIdx.x; q < count * ld / 4; q += kNarrowPixels) out[q] = staged[q];
}

// Split-K reduction: a block sums 32 consecutive outputs; its 8 rows of
// threads take every 8th split each, and row 0 adds the 8 results in order.
constexpr unsigned kReduceOutputs = 32, kReduceLanes = 8;

__global__ void __launch_bounds__(kReduceOutputs* kReduceLanes)
    split_reduce_kernel(const SplitReduce job) {
  __shared__ float lane_sums[kReduceLanes][kReduceOutputs + 1];
  begin_after_prior_kernels();
  const uint32_t e = blockIdx.x * kReduceOutputs + threadIdx.x;
  const bool inside = e < job.count();
  float acc = 0.0f;
  if (inside) {
    const float* from = job.partials + job.source(e);
    for (int32_t s = threadIdx.y; s < job.splits; s += kReduceLanes) {
      acc += from[s * job.split_stride];
    }
  }
  lane_sums[threadIdx.y][threadIdx.x] = acc;
  __syncthreads();
  if (threadIdx.y == 0 && inside) {
    float total = 0.0f;
    for (unsigned lane = 0; lane < kReduceLanes; ++lane) total += lane_sums[lane][threadIdx.x];
    *job.target(e) = total;
  }
}

class DeviceConvExecutor final : public ConvExecutor {
 public:
  explicit DeviceConvExecutor(Context& ctx) : c_(ctx) {}

  int64_t split_target_tiles() const override {
    return int64_t(c_.multiprocessors) * kSplitTilesPerSm;
  }
  float* scratch(size_t floats) override { return c_.scratch.get(floats); }

  void gather(const ConvShape& s, const GatherJob& j) override {
    const PixelGrid grid(static_cast<int32_t>(s.H), static_cast<int32_t>(s.W));
    const uint32_t pixels = static_cast<uint32_t>(s.pixels());
    const int32_t channels = static_cast<int32_t>(j.channels);
    with_kernel_size(s.K, [&](auto k) {
      constexpr int K = decltype(k)::value;
      if (vectorizable(j.channels, j.ld)) {
        launch_rows(c_, pixels,
                    TapGather<K, 4>{grid, j.src, j.dst, channels, FastDivide(channels / 4), j.ld,
                                    j.sign, static_cast<uint32_t>(j.ld / 4), j.ones_at},
                    "tap gather");
      } else if (j.ld <= kNarrowRow && j.ld % 4 == 0) {
        const TapGather<K, 1> body{grid,
                                   j.src,
                                   j.dst,
                                   channels,
                                   FastDivide(channels),
                                   j.ld,
                                   j.sign,
                                   static_cast<uint32_t>(j.ld),
                                   j.ones_at};
        launch(c_, "narrow_gather_kernel", narrow_gather_kernel<K>,
               (pixels + kNarrowPixels - 1) / kNarrowPixels, kNarrowPixels, 0, pixels, body);
      } else {
        launch_rows(c_, pixels,
                    TapGather<K, 1>{grid, j.src, j.dst, channels, FastDivide(channels), j.ld,
                                    j.sign, static_cast<uint32_t>(j.ld), j.ones_at},
                    "tap gather");
      }
    });
  }

  void tap_sum(const ConvShape& s, const TapSumJob& j) override {
    const PixelGrid grid(static_cast<int32_t>(s.H), static_cast<int32_t>(s.W));
    const uint32_t pixels = static_cast<uint32_t>(s.pixels());
    const int32_t channels = static_cast<int32_t>(j.channels);
    with_kernel_size(s.K, [&](auto k) {
      constexpr int K = decltype(k)::value;
      if (vectorizable(j.channels, j.ld)) {
        launch_rows(c_, pixels,
                    TapSum<K, 4>{grid, j.src, j.ld, j.out, channels, j.sign, j.bias, j.relu},
                    "tap sum");
      } else {
        launch_rows(c_, pixels,
                    TapSum<K, 1>{grid, j.src, j.ld, j.out, channels, j.sign, j.bias, j.relu},
                    "tap sum");
      }
    });
  }

  bool gemm(const GemmCall& call, const char* what) override {
    GemmCall routed = call;
    // FP32 convolutions (v4's fp32-conv option): no TF32 rounding anywhere
    // (the short-K kernel is TF32 only, so it declines exact calls).
    routed.exact_fp32 = call.exact_fp32 || c_.tuning.fp32_convolutions;
    if (short_k_product_fits(routed)) {
      short_k_product(c_, routed);
      return true;
    }
    return c_.gemm.run(routed, what);
  }

  void bias_activation(float* y, const float* bias, int64_t rows, int64_t cols,
                       bool relu) override {
    if (rows * cols >= kIndexLimit) {
      cae_plugin::fail(CAE_STATUS_UNSUPPORTED,
                       "conv2d_forward: output too large for the "
                       "separate bias epilogue");
    }
    launch_flat(c_, static_cast<uint32_t>(rows * cols), BiasActivation{y, bias, cols, relu},
                "bias activation");
  }

  void column_sums(const float* m, int64_t rows, int64_t cols, float* out) override {
    cae_cuda::column_sums(c_, m, rows, cols, out);
  }

  void reduce_splits(const SplitReduce& job) override {
    const unsigned blocks = (job.count() + kReduceOutputs - 1) / kReduceOutputs;
    launch(c_, "split_reduce_kernel", split_reduce_kernel, blocks,
           dim3(kReduceOutputs, kReduceLanes), 0, job);
  }

  void prepare_weights(const PreparedWeights& job, int64_t floats) override {
    launch_flat(c_, static_cast<uint32_t>(floats), job, "prepared weights");
  }

 private:
  Context& c_;
};

void check_limits(const cae_plugin::ConvDims& d) {
  with_kernel_size(d.K, [](auto) {});
  const int64_t pixels = d.N * d.H * d.W, weights = d.O * d.C * d.K * d.K + d.O;
  if (pixels >= kIndexLimit || weights >= kIndexLimit) {
    cae_plugin::fail(CAE_STATUS_UNSUPPORTED,
                     "conv2d: the TF32 convolutions (v3's, and v4's layers of few channels) "
                     "index pixels and weights in 32 bits (" +
                         std::to_string(pixels) + " pixels, " + std::to_string(weights) +
                         " weights)");
  }
}

// The columns slot for this layer's x, and whether it already holds them.
Reusable cached_columns(Context& ctx, const ConvShape& s, const cae_tensor_s& x,
                        ColumnCache::Slot** slot) {
  Reusable r;
  *slot = nullptr;
  if (!s.columns_scheme()) return r;
  const size_t floats = static_cast<size_t>(s.pixels() * ConvLayout(s).ld);
  *slot = ctx.columns.slot_for({s.N, s.C, s.H, s.W, s.K}, floats);
  if (*slot == nullptr) return r;
  r.data = (*slot)->memory.as();
  r.valid = (*slot)->version == x.version;
  if (!r.valid) (*slot)->version = 0;  // being refilled: never stale if this op fails
  return r;
}

// The weight tensor's prepared forms (see ConvLayout), when this op multiplies
// them, and whether they are current.
Reusable prepared_weights_of(Context& ctx, const ConvShape& s, cae_tensor_s& w, bool needed) {
  Reusable r;
  if (!needed) return r;
  const size_t bytes = static_cast<size_t>(ConvLayout(s).prepared_floats) * sizeof(float);
  r.data = static_cast<float*>(
      derived_storage(w.prepared_weights, bytes, ctx.memory, "prepared conv weights"));
  r.valid = w.prepared_weights.version == w.version;
  if (!r.valid) w.prepared_weights.version = 0;
  return r;
}

}  // namespace

void tf32_conv2d_forward(Context& ctx, const cae_plugin::ConvDims& d, const cae_tensor_s& x,
                         cae_tensor_s& w, const float* b, float* y, bool relu) {
  check_limits(d);
  const ConvShape s(d);
  DeviceConvExecutor ex(ctx);
  ColumnCache::Slot* slot = nullptr;
  const Reusable columns = cached_columns(ctx, s, x, &slot);
  const ConvLayout layout(s);
  const Reusable weights = prepared_weights_of(ctx, s, w, !layout.columns || layout.padded_weights);
  conv_forward_steps(ex, s, x.data, w.data, b, y, relu, columns, weights);
  if (slot) slot->version = x.version;
  if (weights.data) w.prepared_weights.version = w.version;
}

void tap_sum(Context& ctx, const cae_plugin::ConvDims& d, const float* tap_outputs,
             const float* bias, bool relu, float* y) {
  const ConvShape s(d);
  DeviceConvExecutor(ctx).tap_sum(s,
                                  TapSumJob{tap_outputs, s.taps() * s.O, y, s.O, +1, bias, relu});
}

void tf32_conv2d_backward(Context& ctx, const cae_plugin::ConvDims& d, const cae_tensor_s& x,
                          cae_tensor_s& w, const float* dy, float* dx, float* dw, float* db) {
  check_limits(d);
  const ConvShape s(d);
  DeviceConvExecutor ex(ctx);
  ColumnCache::Slot* slot = nullptr;
  const Reusable columns = cached_columns(ctx, s, x, &slot);
  const Reusable weights = prepared_weights_of(ctx, s, w, dx != nullptr);
  conv_backward_steps(ex, s, x.data, w.data, dy, dx, dw, db, columns, weights);
  if (slot) slot->version = x.version;
  if (weights.data) w.prepared_weights.version = w.version;
}

}  // namespace cae_tf32_conv
