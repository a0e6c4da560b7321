#include "tf32_conv_steps.hpp"

#include <algorithm>
#include <string>

#include "device_memory.hpp"
#include "plugin_support.hpp"

namespace cae_tf32_conv {

ConvLayout::ConvLayout(const ConvShape& s) : columns(s.columns_scheme()) {
  if (columns) {
    width = s.taps() * s.C;
    ld = padded_row(width + 1);  // room for the column of ones
    padded_weights = width % 4 != 0;
    forward_k = padded_weights ? ld : width;
    first_part = padded_weights ? s.O * ld : 0;
    prepared_floats = first_part + width * s.O;
  } else {
    width = s.taps() * s.O;
    ld = padded_row(width);
    padded_weights = false;
    forward_k = s.C;
    first_part = ld * s.C;
    prepared_floats = 2 * first_part;
  }
}

namespace {

void must_run(ConvExecutor& ex, const GemmCall& call, const char* what) {
  if (!ex.gemm(call, what)) {
    cae_plugin::fail(CAE_STATUS_UNSUPPORTED,
                     std::string(what) + ": cuBLASLt offers no algorithm for this product");
  }
}

// Fills the prepared weights unless they are current; returns where they are.
const float* prepared(ConvExecutor& ex, const ConvShape& s, const ConvLayout& l, const float* w,
                      Reusable r, float* scratch_copy) {
  float* out = r.data ? r.data : scratch_copy;
  if (!r.valid) {
    PreparedWeights job{};
    job.w = w;
    job.out = out;
    job.columns = l.columns;
    job.width = static_cast<uint32_t>(l.width);
    job.taps = static_cast<uint32_t>(s.taps());
    job.first_part = static_cast<uint32_t>(l.first_part);
    job.by_ld = FastDivide(static_cast<uint32_t>(l.ld));
    job.by_o = FastDivide(static_cast<uint32_t>(s.O));
    job.by_c = FastDivide(static_cast<uint32_t>(s.C));
    ex.prepare_weights(job, l.prepared_floats);
  }
  return out;
}

void finish_weight_gradient(ConvExecutor& ex, const ConvShape& s, const float* partials,
                            int32_t splits, int64_t split_stride, bool tap_major,
                            int64_t partial_row, float* dw, float* db) {
  SplitReduce job{};
  job.partials = partials;
  job.splits = splits;
  job.split_stride = split_stride;
  job.dw = dw;
  job.weight_count = static_cast<uint32_t>(s.O * s.taps() * s.C);
  job.tap_major = tap_major;
  job.by_taps_c = FastDivide(static_cast<uint32_t>(s.taps() * s.C));
  job.by_c = FastDivide(static_cast<uint32_t>(s.C));
  job.out_channels = static_cast<uint32_t>(s.O);
  job.partial_row = partial_row;
  job.db = db;
  ex.reduce_splits(job);
}

}  // namespace

// Skinny gradients (conv1's and conv5's, at most 4 output tiles of 128 x 128)
// are split into chunks for about `target_tiles` tiles in all, each chunk at
// least 512 pixels long. Wider ones run as one GEMM: measured on an H200,
// cuBLASLt's own choice beat every manual split there (by 4-16 %).
int32_t weight_gradient_splits(int64_t m, int64_t n, int64_t pixels, int64_t target_tiles) {
  const int64_t tiles = ((m + 127) / 128) * ((n + 127) / 128);
  if (tiles > 4) return 1;
  const int64_t wanted = std::max<int64_t>(1, target_tiles / tiles);
  int64_t splits = 1;
  while (splits * 2 <= wanted && pixels % (splits * 2) == 0 && pixels / (splits * 2) >= 512) {
    splits *= 2;
  }
  return static_cast<int32_t>(splits);
}

void conv_forward_steps(ConvExecutor& ex, const ConvShape& s, const float* x, const float* w,
                        const float* b, float* y, bool relu, Reusable columns,
                        Reusable prepared_w) {
  const ConvLayout l(s);
  const int64_t P = s.pixels();
  ScratchLayout layout;
  if (l.columns) {
    const size_t columns_at = columns.data ? 0 : layout.add(P * l.ld);
    const size_t weights_at =
        l.padded_weights && !prepared_w.data ? layout.add(l.prepared_floats) : 0;
    float* base = ex.scratch(layout.total());
    float* cols = columns.data ? columns.data : base + columns_at;
    if (!columns.valid) ex.gather(s, {x, cols, s.C, l.ld, +1, l.width});
    const float* wm = l.padded_weights ? prepared(ex, s, l, w, prepared_w, base + weights_at) : w;
    GemmCall g;
    g.transpose_a = true;  // Wm is [O][forward_k] row-major
    g.m = s.O;
    g.n = P;
    g.k = l.forward_k;
    g.a = wm;
    g.lda = l.forward_k;
    g.b = cols;
    g.ldb = l.ld;
    g.d = y;
    g.ldd = s.O;
    g.epilogue = relu ? Epilogue::bias_relu : Epilogue::bias;
    g.bias = b;
    if (!ex.gemm(g, "conv2d_forward: Y = cols Wm^T + b")) {
      g.epilogue = Epilogue::none;
      g.bias = nullptr;
      must_run(ex, g, "conv2d_forward: Y = cols Wm^T");
      ex.bias_activation(y, b, P, s.O, relu);
    }
    return;
  }
  const size_t taps_at = layout.add(P * l.ld);
  const size_t weights_at = prepared_w.data ? 0 : layout.add(l.prepared_floats);
  float* base = ex.scratch(layout.total());
  float* taps = base + taps_at;
  const float* wt = prepared(ex, s, l, w, prepared_w, base + weights_at);
  GemmCall g;
  g.transpose_a = true;  // Wt is [ld][C] row-major
  g.m = l.ld;
  g.n = P;
  g.k = s.C;
  g.a = wt;
  g.lda = s.C;
  g.b = x;
  g.ldb = s.C;
  g.d = taps;
  g.ldd = l.ld;
  must_run(ex, g, "conv2d_forward: taps = X Wt^T");
  ex.tap_sum(s, {taps, l.ld, y, s.O, +1, b, relu});
}

void conv_backward_steps(ConvExecutor& ex, const ConvShape& s, const float* x, const float* w,
                         const float* dy, float* dx, float* dw, float* db, Reusable columns,
                         Reusable prepared_w) {
  const ConvLayout l(s);
  const int64_t P = s.pixels();
  ScratchLayout layout;
  if (l.columns) {
    // Each partial is [O][ld]: T*C weight columns, db, then zeros (aligned rows).
    const int64_t rows = l.ld;
    const int32_t splits = weight_gradient_splits(rows, s.O, P, ex.split_target_tiles());
    const int64_t chunk = P / splits, split_stride = rows * s.O;
    const size_t columns_at = columns.data ? 0 : layout.add(P * l.ld);
    const size_t partials_at = layout.add(splits * split_stride);
    const size_t dcols_at = dx ? layout.add(P * l.ld) : 0;
    const size_t weights_at = dx && !prepared_w.data ? layout.add(l.prepared_floats) : 0;
    float* base = ex.scratch(layout.total());
    float* cols = columns.data ? columns.data : base + columns_at;
    float* partials = base + partials_at;
    if (!columns.valid) ex.gather(s, {x, cols, s.C, l.ld, +1, l.width});
    // dW'_s[ld][O] (column-major) = cols_s^T-view x DY_s, per chunk s of pixels.
    GemmCall g;
    g.transpose_b = true;  // DY is [P][O] row-major
    g.m = rows;
    g.n = s.O;
    g.k = chunk;
    g.a = cols;
    g.lda = l.ld;
    g.batch_stride_a = chunk * l.ld;
    g.b = dy;
    g.ldb = s.O;
    g.batch_stride_b = chunk * s.O;
    g.d = partials;
    g.ldd = rows;
    g.batch_stride_d = split_stride;
    g.batch = splits;
    must_run(ex, g, "conv2d_backward: dW' = DY^T [cols 1]");
    finish_weight_gradient(ex, s, partials, splits, split_stride, false, rows, dw, db);
    if (dx) {
      float* dcols = base + dcols_at;
      const float* wm_t = prepared(ex, s, l, w, prepared_w, base + weights_at) + l.first_part;
      GemmCall h;
      h.transpose_a = true;  // Wm^T is [T*C][O] row-major
      h.m = l.width;
      h.n = P;
      h.k = s.O;
      h.a = wm_t;
      h.lda = s.O;
      h.b = dy;
      h.ldb = s.O;
      h.d = dcols;
      h.ldd = l.ld;
      must_run(ex, h, "conv2d_backward: dcols = DY Wm");
      ex.tap_sum(s, {dcols, l.ld, dx, s.C, -1, nullptr, false});
    }
    return;
  }
  const int32_t splits = weight_gradient_splits(s.C, l.ld, P, ex.split_target_tiles());
  const int64_t chunk = P / splits, split_stride = padded_row(l.ld * s.C);
  const size_t gathered_at = layout.add(P * l.ld);
  const size_t partials_at = layout.add(splits * split_stride);
  const size_t weights_at = dx && !prepared_w.data ? layout.add(l.prepared_floats) : 0;
  float* base = ex.scratch(layout.total());
  float* gathered = base + gathered_at;
  float* partials = base + partials_at;
  ex.gather(s, {dy, gathered, s.O, l.ld, -1, -1});
  if (dx) {
    const float* wt_t = prepared(ex, s, l, w, prepared_w, base + weights_at) + l.first_part;
    GemmCall h;
    h.transpose_a = true;  // Wt^T is [C][ld] row-major
    h.m = s.C;
    h.n = P;
    h.k = l.ld;
    h.a = wt_t;
    h.lda = l.ld;
    h.b = gathered;
    h.ldb = l.ld;
    h.d = dx;
    h.ldd = s.C;
    must_run(ex, h, "conv2d_backward: DX = G Wt");
  }
  // dWt_s[C][ld] (column-major) = X_s^T-view x G_s, per chunk s of pixels.
  GemmCall g;
  g.transpose_b = true;  // G is [P][ld] row-major
  g.m = s.C;
  g.n = l.ld;
  g.k = chunk;
  g.a = x;
  g.lda = s.C;
  g.batch_stride_a = chunk * s.C;
  g.b = gathered;
  g.ldb = l.ld;
  g.batch_stride_b = chunk * l.ld;
  g.d = partials;
  g.ldd = s.C;
  g.batch_stride_d = split_stride;
  g.batch = splits;
  must_run(ex, g, "conv2d_backward: dWt = G^T X");
  finish_weight_gradient(ex, s, partials, splits, split_stride, true, 0, dw, nullptr);
  ex.column_sums(dy, P, s.O, db);
}

}  // namespace cae_tf32_conv
