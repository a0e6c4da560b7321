// SVM kernel matrices K = k(X, Y) through SGEMM.
//
// LINEAR is X · Y^T. RBF uses ||x - y||^2 = ||x||^2 + ||y||^2 - 2 <x, y>, with
// the squared norms summed in double and the distance clamped at 0 (rounding
// can make it slightly negative for near-identical rows).
//
// kernel_rbf_from_linear (ABI 1.10) makes the RBF kernel from a LINEAR one
// this function wrote, through the same element-wise formula: a search over
// several gammas pays for the product once.
//
// K is cut into fixed tiles, each one GEMM on one thread: a tile's values do
// not depend on the thread count, and OpenBLAS packs one block of Y per tile
// that is reused over all the tile's rows of X.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <tuple>
#include <utility>

#include "cpu_blas.hpp"
#include "cpu_blas_memory.hpp"
#include "cpu_context.hpp"
#include "cpu_ops.hpp"
#include "cpu_parallel.hpp"
#include "op_shapes.hpp"

namespace cae_cpu {
namespace {

constexpr int64_t kTileRows = 256;      // rows of X per tile
constexpr int64_t kTileColumns = 1024;  // rows of Y per tile

// norms[i] = sum_k rows[i,k]^2 for a [count, dim] matrix.
void squared_norms(int threads, const float* rows, int64_t count, int64_t dim, double* norms) {
  parallel_for(threads, count, [&](int64_t i) {
    const float* row = rows + i * dim;
    double sum = 0.0;
    for (int64_t k = 0; k < dim; ++k) sum += static_cast<double>(row[k]) * row[k];
    norms[i] = sum;
  });
}

// One RBF value from its linear product and the rows' squared norms: the one
// formula of kernel_matrix and kernel_rbf_from_linear, so that the two agree
// bit for bit.
inline float rbf_of_product(float product, double x_norm, double y_norm, float gamma) {
  const double distance = x_norm + y_norm - 2.0 * product;
  return std::exp(-gamma * static_cast<float>(std::max(distance, 0.0)));
}

// The rows' squared norms for an RBF kernel, in the context's scratch: y's
// are x's when the two are one tensor.
std::pair<double*, double*> rbf_norms(cae_context_s& c, const char* op, const cae_tensor_s& X,
                                      const cae_tensor_s& Y, const cae_plugin::KernelDims& d) {
  const bool same = &X == &Y;
  double* norms = c.scratch.doubles.reserve(static_cast<size_t>(same ? d.n : d.n + d.m), op,
                                            "squared norms");
  squared_norms(c.threads, X.data(), d.n, d.d, norms);
  double* y_norms = same ? norms : norms + d.n;
  if (!same) squared_norms(c.threads, Y.data(), d.m, d.d, y_norms);
  return {norms, y_norms};
}

}  // namespace

cae_status kernel_matrix(cae_context ctx, cae_tensor x, cae_tensor y, cae_tensor k, int32_t kind,
                         float gamma) {
  return cae_plugin::guard(ctx, [&] {
    const char* op = "kernel_matrix";
    cae_context_s& c = context_arg(ctx, op);
    const cae_tensor_s& X = tensor_arg(c, x, op, "x");
    const cae_tensor_s& Y = tensor_arg(c, y, op, "y");  // may be X
    const cae_tensor_s& K = tensor_arg(c, k, op, "k");
    const auto d = cae_plugin::check_kernel_matrix(X.shape, Y.shape, K.shape, kind, gamma);
    require_blas_sizes(op, {d.n, d.m, d.d});
    const bool rbf = kind == CAE_KERNEL_RBF;

    double* x_norms = nullptr;
    double* y_norms = nullptr;
    if (rbf) std::tie(x_norms, y_norms) = rbf_norms(c, op, X, Y, d);

    const int64_t row_tiles = (d.n + kTileRows - 1) / kTileRows;
    const int64_t column_tiles = (d.m + kTileColumns - 1) / kTileColumns;
    const BlasBuffers blas(c.threads, op);
    parallel_for(c.threads, row_tiles * column_tiles, [&](int64_t tile) {
      const int64_t i0 = tile / column_tiles * kTileRows;
      const int64_t j0 = tile % column_tiles * kTileColumns;
      const int64_t rows = std::min(kTileRows, d.n - i0);
      const int64_t columns = std::min(kTileColumns, d.m - j0);
      float* out = K.data() + i0 * d.m + j0;
      gemm(false, true, rows, columns, d.d, X.data() + i0 * d.d, d.d, Y.data() + j0 * d.d, d.d,
           0.0f, out, d.m);
      if (!rbf) return;
      for (int64_t i = 0; i < rows; ++i) {
        float* row = out + i * d.m;
        for (int64_t j = 0; j < columns; ++j) {
          row[j] = rbf_of_product(row[j], x_norms[i0 + i], y_norms[j0 + j], gamma);
        }
      }
    });
  });
}

cae_status kernel_rbf_from_linear(cae_context ctx, cae_tensor x, cae_tensor y, cae_tensor linear,
                                  cae_tensor k, float gamma) {
  return cae_plugin::guard(ctx, [&] {
    const char* op = "kernel_rbf_from_linear";
    cae_context_s& c = context_arg(ctx, op);
    const cae_tensor_s& X = tensor_arg(c, x, op, "x");
    const cae_tensor_s& Y = tensor_arg(c, y, op, "y");  // may be X
    const cae_tensor_s& L = tensor_arg(c, linear, op, "linear");
    const cae_tensor_s& K = tensor_arg(c, k, op, "k");  // may be L
    const auto d =
        cae_plugin::check_kernel_rbf_from_linear(X.shape, Y.shape, L.shape, K.shape, gamma);
    const auto [x_norms, y_norms] = rbf_norms(c, op, X, Y, d);
    const float* in = L.data();
    float* out = K.data();
    parallel_for(c.threads, d.n, [&](int64_t i) {
      for (int64_t j = 0; j < d.m; ++j) {
        out[i * d.m + j] = rbf_of_product(in[i * d.m + j], x_norms[i], y_norms[j], gamma);
      }
    });
  });
}

}  // namespace cae_cpu
