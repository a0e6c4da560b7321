#include "svm/weighted_kernel_sums.hpp"

#include <algorithm>

#include "svm/kernel_params.hpp"
#include "svm/svm_error.hpp"

namespace cae::svm {
WeightedKernelSums::WeightedKernelSums(Context& context, const DeviceRows& rows,
                                       const float* weights, int64_t weight_rows, KernelSpec spec)
    : context_(context), rows_(rows), weight_rows_(weight_rows), spec_(spec) {
  if (weight_rows <= 0) {
    throw SvmError("weighted kernel sums need at least one weight row, got " +
                   std::to_string(weight_rows));
  }
  const int64_t width = rows.rows();
  for (const DeviceRows::Tile& tile : rows.tiles()) {
    // The tile's columns of every weight row, made contiguous.
    staging_.resize(static_cast<size_t>(weight_rows * tile.count));
    for (int64_t q = 0; q < weight_rows; ++q) {
      const float* from = weights + q * width + tile.first;
      std::copy(from, from + tile.count, staging_.begin() + q * tile.count);
    }
    Tensor tensor = context.alloc({weight_rows, tile.count});
    tensor.upload(staging_);
    weights_.push_back(std::move(tensor));
  }
}

void WeightedKernelSums::check_queries(const DeviceRows& queries) const {
  if (queries.dim() != rows_.dim()) {
    throw SvmError("kernel between rows of dimension " + std::to_string(queries.dim()) + " and " +
                   std::to_string(rows_.dim()));
  }
}

void WeightedKernelSums::accumulate(size_t t, const DeviceRows::Tile& query, const Tensor& kernel,
                                    int64_t width, double* sums) {
  // [weights, row tile] x [query tile, row tile]^T: the linear kernel's product.
  Tensor& products = reshaped(context_, products_, weight_rows_, query.count);
  context_.kernel_matrix(weights_[t], kernel, products, CAE_KERNEL_LINEAR, 0.0f);
  staging_.resize(static_cast<size_t>(weight_rows_ * query.count));
  products.download(staging_.data(), staging_.size());
  for (int64_t q = 0; q < weight_rows_; ++q) {
    const float* from = staging_.data() + q * query.count;
    double* to = sums + q * width + query.first;
    for (int64_t i = 0; i < query.count; ++i) to[i] += from[i];
  }
}

void WeightedKernelSums::add_to(const DeviceRows& queries, double* sums) {
  check_queries(queries);
  const cae_kernel_kind kind = backend_kernel_kind(spec_.kind);
  for (const DeviceRows::Tile& query : queries.tiles()) {
    for (size_t t = 0; t < rows_.tiles().size(); ++t) {
      const DeviceRows::Tile& row = rows_.tiles()[t];
      Tensor& kernel = reshaped(context_, kernel_, query.count, row.count);
      context_.kernel_matrix(query.tensor, row.tensor, kernel, kind, spec_.gamma);
      accumulate(t, query, kernel, queries.rows(), sums);
    }
  }
}

void WeightedKernelSums::add_to_each(const std::vector<WeightedKernelSums*>& each,
                                     const DeviceRows& queries, const std::vector<double*>& sums) {
  if (each.size() != sums.size()) {
    throw SvmError("weighted kernel sums: " + std::to_string(each.size()) + " kernels but " +
                   std::to_string(sums.size()) + " outputs");
  }
  if (each.empty()) return;
  Context& context = each.front()->context_;
  const DeviceRows& rows = each.front()->rows_;
  bool reuse = each.size() > 1 && context.has_kernel_rbf_from_linear();
  for (const WeightedKernelSums* one : each) {
    if (&one->context_ != &context || &one->rows_ != &rows) {
      throw SvmError("weighted kernel sums taken together must share their context and rows");
    }
    reuse = reuse && one->spec_.kind == KernelKind::Rbf;
  }
  if (!reuse) {
    for (size_t i = 0; i < each.size(); ++i) each[i]->add_to(queries, sums[i]);
    return;
  }
  each.front()->check_queries(queries);
  Tensor product;  // [query tile, row tile]: the tile pair's linear kernel
  std::vector<GammaKernel> kernels(each.size());
  for (const DeviceRows::Tile& query : queries.tiles()) {
    for (size_t t = 0; t < rows.tiles().size(); ++t) {
      const DeviceRows::Tile& row = rows.tiles()[t];
      for (size_t i = 0; i < each.size(); ++i) {
        kernels[i] = {each[i]->spec_.gamma, &reshaped(context, each[i]->kernel_, query.count, row.count)};
      }
      rbf_kernels_from_one_product(context, query.tensor, row.tensor, product, kernels);
      for (size_t i = 0; i < each.size(); ++i) {
        each[i]->accumulate(t, query, *kernels[i].kernel, queries.rows(), sums[i]);
      }
    }
  }
}

}  // namespace cae::svm
