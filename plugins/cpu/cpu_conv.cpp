// Convolution (stride 1, "same" padding, odd square kernel) as im2col + SGEMM.
//
// Lowered on the input side (columns of x, C·K·K rows):
//   forward:         y_n [O,HW] = w [O,CKK] · im2col(x_n) [CKK,HW]   (+ b, ReLU)
//   backward data:   dx_n       = col2im(w^T [CKK,O] · dy_n [O,HW])
//   backward weight: dw [O,CKK] = sum_n dy_n · im2col(x_n)^T
// or, when the layer has fewer output than input channels, on the output side
// (O·K·K rows; see cpu_tap_weights.hpp), which moves less memory for the same
// arithmetic. backward bias: db [O] = sum_n sum_hw dy_n.
//
// Images are independent work items, except for the sums over the batch in
// dw and db. Those are split into a fixed number of slots of consecutive
// images; each slot sums its images in order, and the slots are then added in
// slot order. The split depends only on N, never on the thread count, so
// results are bit-identical for any number of threads.
#include <algorithm>
#include <cstdint>

#include "cpu_blas.hpp"
#include "cpu_blas_memory.hpp"
#include "cpu_context.hpp"
#include "cpu_im2col.hpp"
#include "cpu_ops.hpp"
#include "cpu_parallel.hpp"
#include "cpu_tap_weights.hpp"
#include "op_shapes.hpp"

namespace cae_cpu {
namespace {

// Slots of the batch sums in conv2d_backward: enough to keep 16 threads busy,
// few enough that the partial weight gradients stay small (a few MiB).
constexpr int64_t kWeightGradientSlots = 16;

using cae_plugin::ConvDims;

ConvGeometry input_geometry(const ConvDims& d) { return {d.C, d.H, d.W, d.K}; }
ConvGeometry output_geometry(const ConvDims& d) { return {d.O, d.H, d.W, d.K}; }

// Lower on the output side when that side is the smaller. The forward pass
// keeps the input side on a tie (im2col copies; col2im adds); the backward
// pass prefers the output side on a tie (it needs no col2im at all).
bool forward_on_output_side(const ConvDims& d) { return d.O < d.C; }
bool backward_on_output_side(const ConvDims& d) { return d.O <= d.C; }

// The columns of one image: the image itself for a 1×1 kernel (no padding,
// [channels, HW] is already the matrix), else im2col into `scratch`.
const float* columns_of(const ConvGeometry& g, const float* image, float* scratch) noexcept {
  if (g.kernel == 1) return image;
  im2col(g, image, scratch);
  return scratch;
}

void add_bias(float* y, const float* bias, int64_t channels, int64_t plane, bool relu) noexcept {
  for (int64_t o = 0; o < channels; ++o) {
    float* row = y + o * plane;
    const float b = bias[o];
    if (relu) {
      for (int64_t i = 0; i < plane; ++i) row[i] = std::max(row[i] + b, 0.0f);
    } else {
      for (int64_t i = 0; i < plane; ++i) row[i] += b;
    }
  }
}

// The tap-major weights of an output-side lowering, rebuilt on every call (the
// weights change between calls); small next to the GEMMs.
const float* tap_weights(cae_context_s& c, const float* w, const ConvDims& d, const char* op) {
  float* taps = c.scratch.weights.reserve(static_cast<size_t>(d.O * d.C * d.K * d.K), op,
                                          "rearranged weights");
  make_tap_weights(w, d.O, d.C, d.K, taps);
  return taps;
}

}  // namespace

cae_status conv2d_forward(cae_context ctx, cae_tensor x, cae_tensor w, cae_tensor b, cae_tensor y,
                          int32_t fuse_relu) {
  return cae_plugin::guard(ctx, [&] {
    const char* op = "conv2d_forward";
    cae_context_s& c = context_arg(ctx, op);
    const cae_tensor_s& X = tensor_arg(c, x, op, "x");
    const cae_tensor_s& Wt = tensor_arg(c, w, op, "w");
    const cae_tensor_s& B = tensor_arg(c, b, op, "b");
    const cae_tensor_s& Y = tensor_arg(c, y, op, "y");
    const ConvDims d =
        cae_plugin::check_conv2d_forward(X.shape, Wt.shape, B.shape, Y.shape, fuse_relu);
    const bool output_side = forward_on_output_side(d);
    const ConvGeometry g = output_side ? output_geometry(d) : input_geometry(d);
    const int64_t HW = g.plane(), KK = d.K * d.K;
    require_blas_sizes(op, {d.O * KK, d.C * KK, HW});
    const ThreadSlices scratch =
        c.scratch.per_thread(c.threads, d.K == 1 ? 0 : g.column_size(), op);
    const float* weights = output_side ? tap_weights(c, Wt.data(), d, op) : Wt.data();

    const BlasBuffers blas(c.threads, op);
    parallel_for(c.threads, d.N, [&](int64_t n) {
      const float* x_n = X.data() + n * d.C * HW;
      float* y_n = Y.data() + n * d.O * HW;
      if (output_side) {
        // Each tap's contribution for every input position, then each output
        // gathers its K·K taps (col2im); a 1×1 kernel has one tap: y_n itself.
        float* taps_out = d.K == 1 ? y_n : scratch.of(thread_index());
        gemm(false, false, d.O * KK, HW, d.C, weights, d.C, x_n, HW, 0.0f, taps_out, HW);
        if (d.K != 1) col2im(g, taps_out, y_n);
      } else {
        const float* columns = columns_of(g, x_n, scratch.of(thread_index()));
        gemm(false, false, d.O, HW, d.C * KK, weights, d.C * KK, columns, HW, 0.0f, y_n, HW);
      }
      add_bias(y_n, B.data(), d.O, HW, fuse_relu == 1);
    });
  });
}

cae_status conv2d_backward(cae_context ctx, cae_tensor x, cae_tensor w, cae_tensor dy,
                           cae_tensor dx, cae_tensor dw, cae_tensor db) {
  return cae_plugin::guard(ctx, [&] {
    const char* op = "conv2d_backward";
    cae_context_s& c = context_arg(ctx, op);
    const cae_tensor_s& X = tensor_arg(c, x, op, "x");
    const cae_tensor_s& Wt = tensor_arg(c, w, op, "w");
    const cae_tensor_s& DY = tensor_arg(c, dy, op, "dy");
    const cae_tensor_s* DX = optional_tensor_arg(c, dx, op, "dx");
    const cae_tensor_s& DW = tensor_arg(c, dw, op, "dw");
    const cae_tensor_s& DB = tensor_arg(c, db, op, "db");
    const ConvDims d = cae_plugin::check_conv2d_backward(
        X.shape, Wt.shape, DY.shape, DX ? &DX->shape : nullptr, DW.shape, DB.shape);
    const bool output_side = backward_on_output_side(d);
    const ConvGeometry g = output_side ? output_geometry(d) : input_geometry(d);
    const int64_t HW = g.plane(), KK = d.K * d.K, O = d.O, C = d.C;
    const int64_t weight_count = O * C * KK;
    require_blas_sizes(op, {O * KK, C * KK, HW});

    // Per-slot sums of the weight gradient, in the layout of the lowering:
    // [O, CKK] (input side: slot 0 is dw itself) or [C, OKK] (output side).
    const int64_t slots = std::min(d.N, kWeightGradientSlots);
    const int64_t scratch_slots = output_side ? slots : slots - 1;
    float* partials = c.scratch.partial_sums.reserve(
        static_cast<size_t>(scratch_slots * weight_count), op, "partial weight sums");
    auto slot_sum = [&](int64_t slot) {
      return output_side ? partials + slot * weight_count
                         : (slot == 0 ? DW.data() : partials + (slot - 1) * weight_count);
    };
    double* bias_sums = c.scratch.doubles.reserve(static_cast<size_t>(slots * O), op, "bias sums");
    const ThreadSlices scratch =
        c.scratch.per_thread(c.threads, d.K == 1 ? 0 : g.column_size(), op);
    const float* taps = output_side ? tap_weights(c, Wt.data(), d, op) : nullptr;
    const float* weights = Wt.data();

    const BlasBuffers blas(c.threads, op);
    parallel_for(c.threads, slots, [&](int64_t slot) {
      float* dw_sum = slot_sum(slot);
      double* db_sum = bias_sums + slot * O;
      std::fill(db_sum, db_sum + O, 0.0);
      float* columns = scratch.of(thread_index());
      const int64_t first = slot * d.N / slots, last = (slot + 1) * d.N / slots;
      for (int64_t n = first; n < last; ++n) {
        const float* x_n = X.data() + n * C * HW;
        const float* dy_n = DY.data() + n * O * HW;
        float* dx_n = DX ? DX->data() + n * C * HW : nullptr;
        const float beta = n == first ? 0.0f : 1.0f;
        for (int64_t o = 0; o < O; ++o) {
          double sum = 0.0;
          for (int64_t i = 0; i < HW; ++i) sum += dy_n[o * HW + i];
          db_sum[o] += sum;
        }
        if (output_side) {
          const float* dy_columns = columns_of(g, dy_n, columns);
          gemm(false, true, C, O * KK, HW, x_n, HW, dy_columns, HW, beta, dw_sum, O * KK);
          if (dx_n) gemm(true, false, C, HW, O * KK, taps, C, dy_columns, HW, 0.0f, dx_n, HW);
          continue;
        }
        const float* x_columns = columns_of(g, x_n, columns);
        gemm(false, true, O, C * KK, HW, dy_n, HW, x_columns, HW, beta, dw_sum, C * KK);
        if (dx_n) {
          // The columns of x_n are used up: the slice now takes their gradient
          // (for a 1×1 kernel that gradient is dx_n itself).
          float* dx_columns = d.K == 1 ? dx_n : columns;
          gemm(true, false, C * KK, HW, O, weights, C * KK, dy_n, HW, 0.0f, dx_columns, HW);
          if (d.K != 1) col2im(g, dx_columns, dx_n);
        }
      }
    });

    float* total = slot_sum(0);
    parallel_blocks(c.threads, weight_count, [&](int64_t begin, int64_t end) {
      for (int64_t s = 1; s < slots; ++s) {
        const float* partial = slot_sum(s);
        for (int64_t i = begin; i < end; ++i) total[i] += partial[i];
      }
    });
    if (output_side) tap_gradient_to_weights(total, O, C, d.K, DW.data());
    for (int64_t o = 0; o < O; ++o) {
      double sum = 0.0;
      for (int64_t s = 0; s < slots; ++s) sum += bias_sums[s * O + o];
      DB.data()[o] = static_cast<float>(sum);
    }
  });
}

}  // namespace cae_cpu
