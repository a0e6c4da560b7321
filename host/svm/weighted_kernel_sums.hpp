// Weighted sums of kernel values, computed where the kernel values are: for
// query rows x_i and rows r_j on the device and weights w[q, j] from the host,
//   sums[q, i] = sum over j of w[q, j] K(x_i, r_j).
// An SVM's decision values are such sums (the weights: each class pair's
// coefficients on its support vectors), and so are the search's validation
// scores. Per pair of tiles, kernel_matrix writes K [query tile, row tile]
// on the device and a linear kernel_matrix multiplies it by the weights'
// tile; only the [weights, queries] sums come back. Downloading K instead
// moved 1.6 GB for 10,000 test rows against 39,000 support vectors, and the
// host then multiplied it alone.
#pragma once

#include <cstdint>
#include <vector>

#include "plugin/context.hpp"
#include "svm/kernel_blocks.hpp"

namespace cae::svm {

class WeightedKernelSums {
 public:
  // weights: [weight_rows, rows.rows()] row-major, uploaded here (one tensor
  // per tile of `rows`). `rows` must outlive this object.
  WeightedKernelSums(Context& context, const DeviceRows& rows, const float* weights,
                     int64_t weight_rows, KernelSpec spec);

  // sums[q * queries.rows() + i] += sum over j of w[q, j] K(query_i, row_j),
  // each tile pair's product added in double.
  void add_to(const DeviceRows& queries, double* sums);

  int64_t weight_rows() const { return weight_rows_; }

  // each[i]->add_to(queries, sums[i]) for sums of several kernels over the
  // same rows (a search's gammas, on one context): where the backend makes
  // an RBF kernel from the linear one (ABI 1.10), each tile pair's product
  // is computed once for them all. The sums are add_to's, bit for bit.
  static void add_to_each(const std::vector<WeightedKernelSums*>& each, const DeviceRows& queries,
                          const std::vector<double*>& sums);

 private:
  void check_queries(const DeviceRows& queries) const;
  // sums += weights of row tile t x `kernel` [query tile, row tile]^T.
  void accumulate(size_t t, const DeviceRows::Tile& query, const Tensor& kernel, int64_t width,
                  double* sums);

  Context& context_;
  const DeviceRows& rows_;
  int64_t weight_rows_ = 0;
  KernelSpec spec_;
  std::vector<Tensor> weights_;  // per tile of rows_: [weight_rows, tile rows]
  Tensor kernel_;                // [query tile, row tile], reused while shapes repeat
  Tensor products_;              // [weight_rows, query tile]
  std::vector<float> staging_;
};

}  // namespace cae::svm
