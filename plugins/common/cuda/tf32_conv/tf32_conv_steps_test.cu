// Host-only test of the TF32 convolution steps: runs conv_forward_steps and
// conv_backward_steps with a host executor (the same per-element code as the
// kernels, and a GEMM that reads GemmCall exactly as cuBLASLt does) and
// compares with a direct float64 convolution on NCHW data. Needs no GPU.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "resample_kernels.cuh"
#include "tf32_conv_steps.hpp"

namespace {

using namespace cae_tf32_conv;

template <int K, int kVec, class Body>
void each_row_item(const ConvShape& s, const Body& body) {
  const PixelGrid grid(static_cast<int32_t>(s.H), static_cast<int32_t>(s.W));
  for (uint32_t p = 0; p < static_cast<uint32_t>(s.pixels()); ++p) {
    const Pixel at = locate(grid, p);
    for (uint32_t item = 0; item < body.items_per_row(); ++item) body(at, item);
  }
}

class HostExecutor : public ConvExecutor {
 public:
  bool fuse_epilogues = true;
  int sms = 132;
  int gemms = 0;

  int64_t split_target_tiles() const override { return 4 * sms; }
  float* scratch(size_t floats) override {
    scratch_.assign(floats + 64, std::nanf(""));
    return scratch_.data();
  }
  void gather(const ConvShape& s, const GatherJob& j) override { dispatch_gather(s, j); }
  void tap_sum(const ConvShape& s, const TapSumJob& j) override { dispatch_tap_sum(s, j); }
  bool gemm(const GemmCall& c, const char*) override {
    if (!fuse_epilogues && c.epilogue != Epilogue::none) return false;
    ++gemms;
    for (int32_t bt = 0; bt < c.batch; ++bt) {
      const float* a = c.a + bt * c.batch_stride_a;
      const float* b = c.b + bt * c.batch_stride_b;
      float* d = c.d + bt * c.batch_stride_d;
      for (int64_t j = 0; j < c.n; ++j) {
        if (c.epilogue == Epilogue::bias_grad) {
          double sum = 0;
          for (int64_t kk = 0; kk < c.k; ++kk)
            sum += c.transpose_b ? b[j + kk * c.ldb] : b[kk + j * c.ldb];
          c.bias_grad[bt * c.bias_batch_stride + j] = float(sum);
        }
        for (int64_t i = 0; i < c.m; ++i) {
          double acc = 0;
          for (int64_t kk = 0; kk < c.k; ++kk) {
            const double av = c.transpose_a ? a[kk + i * c.lda] : a[i + kk * c.lda];
            const double bv = c.transpose_b ? b[j + kk * c.ldb] : b[kk + j * c.ldb];
            acc += av * bv;
          }
          if (c.epilogue == Epilogue::bias || c.epilogue == Epilogue::bias_relu) acc += c.bias[i];
          if (c.epilogue == Epilogue::bias_relu && acc < 0) acc = 0;
          d[i + j * c.ldd] = float(acc);
        }
      }
    }
    return true;
  }
  void bias_activation(float* y, const float* bias, int64_t rows, int64_t cols,
                       bool relu) override {
    const BiasActivation body{y, bias, cols, relu};
    for (int64_t e = 0; e < rows * cols; ++e) body(e);
  }
  void column_sums(const float* m, int64_t rows, int64_t cols, float* out) override {
    for (int64_t c = 0; c < cols; ++c) {
      double sum = 0;
      for (int64_t r = 0; r < rows; ++r) sum += m[r * cols + c];
      out[c] = float(sum);
    }
  }
  void reduce_splits(const SplitReduce& job) override {
    for (uint32_t e = 0; e < job.count(); ++e) job(e);
  }
  void prepare_weights(const PreparedWeights& job, int64_t floats) override {
    for (uint32_t e = 0; e < uint32_t(floats); ++e) job(e);
  }

 private:
  template <int K>
  void gather_k(const ConvShape& s, const GatherJob& j) {
    const PixelGrid grid(int32_t(s.H), int32_t(s.W));
    if (j.channels % 4 == 0 && j.ld % 4 == 0) {
      each_row_item<K, 4>(s, TapGather<K, 4>{grid, j.src, j.dst, int32_t(j.channels),
                                             FastDivide(uint32_t(j.channels / 4)), j.ld, j.sign,
                                             uint32_t(j.ld / 4), j.ones_at});
    } else if (j.ld <= 32 && j.ld % 4 == 0) {  // the device's narrow kernel: element() per item
      const TapGather<K, 1> body{grid,
                                 j.src,
                                 j.dst,
                                 int32_t(j.channels),
                                 FastDivide(uint32_t(j.channels)),
                                 j.ld,
                                 j.sign,
                                 uint32_t(j.ld),
                                 j.ones_at};
      for (uint32_t p = 0; p < uint32_t(s.pixels()); ++p) {
        const Pixel at = locate(grid, p);
        for (uint32_t item = 0; item < uint32_t(j.ld); ++item)
          j.dst[p * j.ld + item] = body.element(at, item);
      }
    } else {
      each_row_item<K, 1>(s, TapGather<K, 1>{grid, j.src, j.dst, int32_t(j.channels),
                                             FastDivide(uint32_t(j.channels)), j.ld, j.sign,
                                             uint32_t(j.ld), j.ones_at});
    }
  }
  void dispatch_gather(const ConvShape& s, const GatherJob& j) {
    if (s.K == 1) gather_k<1>(s, j);
    if (s.K == 3) gather_k<3>(s, j);
    if (s.K == 5) gather_k<5>(s, j);
    if (s.K == 7) gather_k<7>(s, j);
  }
  template <int K>
  void tap_sum_k(const ConvShape& s, const TapSumJob& j) {
    const PixelGrid grid(int32_t(s.H), int32_t(s.W));
    if (j.channels % 4 == 0 && j.ld % 4 == 0) {
      each_row_item<K, 4>(
          s, TapSum<K, 4>{grid, j.src, j.ld, j.out, int32_t(j.channels), j.sign, j.bias, j.relu});
    } else {
      each_row_item<K, 1>(
          s, TapSum<K, 1>{grid, j.src, j.ld, j.out, int32_t(j.channels), j.sign, j.bias, j.relu});
    }
  }
  void dispatch_tap_sum(const ConvShape& s, const TapSumJob& j) {
    if (s.K == 1) tap_sum_k<1>(s, j);
    if (s.K == 3) tap_sum_k<3>(s, j);
    if (s.K == 5) tap_sum_k<5>(s, j);
    if (s.K == 7) tap_sum_k<7>(s, j);
  }
  std::vector<float> scratch_;
};

// [N][C][HW] <-> [N][HW][C]
std::vector<float> to_nhwc(const std::vector<float>& v, int64_t n, int64_t c, int64_t hw) {
  std::vector<float> out(v.size());
  for (int64_t a = 0; a < n; ++a)
    for (int64_t ch = 0; ch < c; ++ch)
      for (int64_t p = 0; p < hw; ++p) out[(a * hw + p) * c + ch] = v[(a * c + ch) * hw + p];
  return out;
}
std::vector<float> to_nchw(const std::vector<float>& v, int64_t n, int64_t c, int64_t hw) {
  std::vector<float> out(v.size());
  for (int64_t a = 0; a < n; ++a)
    for (int64_t ch = 0; ch < c; ++ch)
      for (int64_t p = 0; p < hw; ++p) out[(a * c + ch) * hw + p] = v[(a * hw + p) * c + ch];
  return out;
}

double rel_err(const std::vector<float>& got, const std::vector<double>& want) {
  double d = 0, w = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    if (!std::isfinite(got[i])) return INFINITY;
    d += (got[i] - want[i]) * (got[i] - want[i]);
    w += want[i] * want[i];
  }
  return std::sqrt(d) / (w > 0 ? std::sqrt(w) : 1.0);
}

int failures = 0;
void expect(double err, const std::string& what) {
  const bool ok = err < 1e-5;
  if (!ok) ++failures;
  std::printf("%-70s rel_err %.2e %s\n", what.c_str(), err, ok ? "ok" : "FAIL");
}

void check_conv(int64_t N, int64_t C, int64_t H, int64_t W, int64_t O, int64_t K, bool relu,
                bool fuse, bool reuse) {
  std::mt19937 rng(unsigned(N * 1000003 + C * 1009 + H * 101 + W * 11 + O * 7 + K));
  std::uniform_real_distribution<float> u(-1, 1);
  auto random = [&](size_t n) {
    std::vector<float> v(n);
    for (auto& e : v) e = u(rng);
    return v;
  };
  const int64_t T = K * K, HW = H * W, h = K / 2;
  std::vector<float> x = random(N * C * HW), w = random(O * C * T), b = random(O),
                     dy = random(N * O * HW);
  // float64 reference, NCHW / OIHW
  std::vector<double> y_ref(N * O * HW), dx_ref(N * C * HW, 0), dw_ref(O * C * T, 0), db_ref(O, 0);
  for (int64_t n = 0; n < N; ++n)
    for (int64_t o = 0; o < O; ++o)
      for (int64_t i = 0; i < H; ++i)
        for (int64_t j = 0; j < W; ++j) {
          double acc = b[o];
          const double g = dy[((n * O + o) * H + i) * W + j];
          db_ref[o] += g;
          for (int64_t c = 0; c < C; ++c)
            for (int64_t ky = 0; ky < K; ++ky)
              for (int64_t kx = 0; kx < K; ++kx) {
                const int64_t si = i + ky - h, sj = j + kx - h;
                if (si < 0 || si >= H || sj < 0 || sj >= W) continue;
                const int64_t xi = ((n * C + c) * H + si) * W + sj,
                              wi = ((o * C + c) * K + ky) * K + kx;
                acc += double(w[wi]) * x[xi];
                dx_ref[xi] += double(w[wi]) * g;
                dw_ref[wi] += double(x[xi]) * g;
              }
          y_ref[((n * O + o) * H + i) * W + j] = relu && acc < 0 ? 0 : acc;
        }
  const cae_plugin::ConvDims dims{N, C, H, W, O, K};
  const ConvShape s(dims);
  HostExecutor ex;
  ex.fuse_epilogues = fuse;
  std::vector<float> xs = to_nhwc(x, N, C, HW), ws = to_nhwc(w, O, C, T),
                     dys = to_nhwc(dy, N, O, HW);
  std::vector<float> y(N * O * HW, NAN), dx(N * C * HW, NAN), dw(O * C * T, NAN), db(O, NAN);
  std::vector<float> cols_keep, wt_keep;
  Reusable cols, wt;
  if (reuse) {
    cols_keep.assign(N * HW * ConvLayout(s).ld + 8, NAN);
    wt_keep.assign(ConvLayout(s).prepared_floats + 8, NAN);
    cols.data = cols_keep.data();
    wt.data = wt_keep.data();
  }
  conv_forward_steps(ex, s, xs.data(), ws.data(), b.data(), y.data(), relu, cols, wt);
  if (reuse) {  // as the device side: the forward prepares weights only when it multiplies them
    cols.valid = true;
    wt.valid = !ConvLayout(s).columns || ConvLayout(s).padded_weights;
  }

  conv_backward_steps(ex, s, xs.data(), ws.data(), dys.data(), dx.data(), dw.data(), db.data(),
                      cols, wt);
  char label[160];
  std::snprintf(label, sizeof label, "N%lld C%lld %lldx%lld O%lld K%lld relu%d fuse%d reuse%d %s",
                (long long)N, (long long)C, (long long)H, (long long)W, (long long)O, (long long)K,
                relu, fuse, reuse, s.columns_scheme() ? "columns" : "taps");
  expect(rel_err(to_nchw(y, N, O, HW), y_ref), std::string(label) + " y");
  expect(rel_err(to_nchw(dx, N, C, HW), dx_ref), std::string(label) + " dx");
  expect(rel_err(to_nchw(dw, O, C, T), dw_ref), std::string(label) + " dw");
  expect(rel_err(db, db_ref), std::string(label) + " db");
}

void check_fast_divide() {
  std::mt19937 rng(7);
  int bad = 0;
  for (uint32_t d : {1u, 2u, 3u, 5u, 7u, 9u, 25u, 27u, 64u, 100u, 255u, 256u, 1152u, 2304u, 65535u,
                     1000003u, 2147483647u}) {
    const FastDivide f(d);
    for (int t = 0; t < 200000; ++t) {
      const uint32_t n = t < 1000 ? uint32_t(t) : (rng() & 0x7fffffffu);
      if (f.quotient(n) != n / d) ++bad;
    }
    const uint32_t edge = 0x7fffffffu;
    if (f.quotient(edge) != edge / d) ++bad;
  }
  if (bad) ++failures;
  std::printf("%-70s %s\n", "FastDivide", bad ? "FAIL" : "ok");
}

// Max-pool and upsample items against direct NCHW loops, with many ties
// (values from {-1, 0, 0.5}) so that the first-max rule is exercised.
template <int kVec>
void check_resample(int64_t N, int64_t C, int64_t h, int64_t w) {
  std::mt19937 rng(unsigned(N * 31 + C * 7 + h * 3 + w));
  const float levels[3] = {-1.0f, 0.0f, 0.5f};
  const int64_t H = 2 * h, W = 2 * w;
  std::vector<float> big(N * C * H * W), small(N * C * h * w), gsmall(N * C * h * w),
      gbig(N * C * H * W);
  for (auto& v : big) v = levels[rng() % 3];
  for (auto& v : small) v = levels[rng() % 3];
  std::uniform_real_distribution<float> u(-1, 1);
  for (auto& v : gsmall) v = u(rng);
  for (auto& v : gbig) v = u(rng);
  // references
  std::vector<double> pooled(small.size()), dpool(big.size(), 0), dpool_relu(big.size(), 0),
      up(big.size()), dup(small.size()), dup_relu(small.size());
  for (int64_t n = 0; n < N; ++n)
    for (int64_t c = 0; c < C; ++c)
      for (int64_t i = 0; i < h; ++i)
        for (int64_t j = 0; j < w; ++j) {
          const int64_t s = ((n * C + c) * h + i) * w + j;
          int64_t at[4];
          for (int t = 0; t < 4; ++t) at[t] = ((n * C + c) * H + 2 * i + t / 2) * W + 2 * j + t % 2;
          double m = big[at[0]];
          for (int t = 1; t < 4; ++t) m = std::max(m, double(big[at[t]]));
          pooled[s] = m;
          for (int t = 0; t < 4; ++t) {
            if (big[at[t]] == m) {
              dpool[at[t]] = gsmall[s];
              dpool_relu[at[t]] = big[at[t]] > 0 ? gsmall[s] : 0.0;
              break;
            }
          }
          double sum = 0;
          for (int t = 0; t < 4; ++t) {
            up[at[t]] = small[s];
            sum += gbig[at[t]];
          }
          dup[s] = sum;
          dup_relu[s] = small[s] > 0 ? sum : 0.0;
        }
  auto nhwc_big = [&](const std::vector<float>& v) { return to_nhwc(v, N, C, H * W); };
  auto nhwc_small = [&](const std::vector<float>& v) { return to_nhwc(v, N, C, h * w); };
  const HalfGrid g(uint32_t(h), uint32_t(w), uint32_t(C), kVec);
  const uint32_t items = uint32_t(N * h * w * C / kVec);
  const std::vector<float> xb = nhwc_big(big), xs = nhwc_small(small), gs = nhwc_small(gsmall),
                           gb = nhwc_big(gbig);
  std::vector<float> y(small.size(), NAN), dx(big.size(), NAN), yb(big.size(), NAN),
      dxs(small.size(), NAN);
  std::vector<uint8_t> choice(small.size(), 255);
  const std::string label = "resample N" + std::to_string(N) + " C" + std::to_string(C) + " " +
                            std::to_string(h) + "x" + std::to_string(w) + " vec" +
                            std::to_string(kVec);
  for (uint32_t e = 0; e < items; ++e) PoolForward<kVec>{g, xb.data(), y.data(), choice.data()}(e);
  expect(rel_err(to_nchw(y, N, C, h * w), pooled), label + " pool forward");
  for (bool recorded : {false, true}) {
    for (bool relu : {false, true}) {
      std::fill(dx.begin(), dx.end(), NAN);
      for (uint32_t e = 0; e < items; ++e)
        PoolBackward<kVec>{g,         xb.data(), recorded ? choice.data() : nullptr,
                           gs.data(), dx.data(), relu}(e);
      expect(rel_err(to_nchw(dx, N, C, H * W), relu ? dpool_relu : dpool),
             label + " pool backward recorded" + std::to_string(recorded) + " relu" +
                 std::to_string(relu));
    }
  }
  for (uint32_t e = 0; e < items; ++e) UpsampleForward<kVec>{g, xs.data(), yb.data()}(e);
  expect(rel_err(to_nchw(yb, N, C, H * W), up), label + " upsample forward");
  for (bool relu : {false, true}) {
    std::fill(dxs.begin(), dxs.end(), NAN);
    for (uint32_t e = 0; e < items; ++e)
      UpsampleBackward<kVec>{g, gb.data(), dxs.data(), relu ? xs.data() : nullptr}(e);
    expect(rel_err(to_nchw(dxs, N, C, h * w), relu ? dup_relu : dup),
           label + " upsample backward relu" + std::to_string(relu));
  }
}

}  // namespace

int main() {
  check_fast_divide();
  for (bool fuse : {true, false}) {
    for (bool reuse : {false, true}) {
      check_conv(16, 16, 8, 8, 24, 3, true, fuse, reuse);   // columns, vector path, splits
      check_conv(16, 24, 8, 8, 12, 3, false, fuse, reuse);  // taps, vector path, splits
    }
  }
  check_conv(1, 1, 7, 5, 4, 3, true, true, false);
  check_conv(3, 5, 9, 12, 7, 3, false, true, false);
  check_conv(3, 2, 1, 1, 2, 3, true, true, false);
  check_conv(1, 17, 5, 19, 3, 3, false, true, false);
  check_conv(2, 3, 6, 7, 4, 1, true, true, false);
  check_conv(2, 3, 6, 7, 4, 5, true, true, false);
  check_conv(2, 6, 6, 7, 4, 5, false, true, true);
  check_conv(2, 3, 9, 8, 16, 7, true, true, true);     // a dense learner's first layer, columns
  check_conv(2, 16, 9, 8, 3, 7, false, true, false);   // and its decoder, taps
  check_conv(1, 3, 3, 2, 4, 7, true, true, false);     // a kernel wider than the image
  check_conv(4, 3, 32, 32, 16, 3, true, true, true);   // conv1-like
  check_conv(4, 32, 16, 16, 3, 3, false, true, true);  // conv5-like
  check_resample<1>(3, 5, 7, 9);
  check_resample<1>(1, 1, 1, 1);
  check_resample<4>(2, 8, 4, 6);
  check_resample<4>(2, 128, 8, 8);
  return failures ? 1 : 0;
}
