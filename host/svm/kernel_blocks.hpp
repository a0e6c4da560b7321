// Kernel values between sets of rows, computed by the selected backend.
//
// Rows live on the device as tiles of at most `tile_rows` rows, uploaded once;
// K between two row sets is assembled from one kernel_matrix call per pair of
// tiles, so device memory stays bounded by the tile sizes whatever the set
// sizes. Every call goes through one cae::Context: use these objects from the
// one thread that owns it.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "plugin/context.hpp"
#include "plugin/host_buffer.hpp"
#include "svm/kernel_params.hpp"

namespace cae::svm {

constexpr int64_t kDefaultTileRows = 8192;

// Host memory the rows pass through on their way up, kept for the next
// upload: page-locked when the backend offers it (a copy three times faster),
// and never zero-filled. A fresh vector per set of rows cost more than the
// copies: 1.5 GB of class rows took 1.2 s to go up on an H200, most of it
// the kernel zeroing pages that were overwritten at once.
class RowStaging {
 public:
  explicit RowStaging(Context& context) : context_(context) {}
  // At least `count` floats, uninitialised; what an earlier call returned is
  // invalid afterwards.
  float* floats(size_t count);

 private:
  Context& context_;
  HostBuffer buffer_;
};

// `tensor` as a [rows, cols] tensor of `context`, reallocated only when its
// shape changes (kernel tiles repeat their shapes); the old buffer is freed
// before the new one is allocated.
Tensor& reshaped(Context& context, Tensor& tensor, int64_t rows, int64_t cols);

// The RBF kernels of several gammas between the same x [n, dim] and y
// [m, dim] from one product: `product` (reshaped here to [n, m]) receives
// x y^T once, then each kernel ([n, m], allocated by the caller) is made from
// it (ABI 1.10's kernel_rbf_from_linear: bit for bit the RBF kernel_matrix
// would give, for one product's work instead of one per gamma). For callers
// that checked Context::has_kernel_rbf_from_linear.
struct GammaKernel {
  float gamma;
  Tensor* kernel;
};
void rbf_kernels_from_one_product(Context& context, const Tensor& x, const Tensor& y,
                                  Tensor& product, const std::vector<GammaKernel>& kernels);

// `count` rows of `dim` floats on the device, in tiles.
class DeviceRows {
 public:
  // fill(first, n, out) writes rows [first, first + n) into out (n * dim floats).
  // It is called on disjoint sub-ranges of a tile from several threads at once:
  // copying and standardising 1.5 GB on one thread took about a fifth of
  // the SVM training time on an H200.
  using Fill = std::function<void(int64_t first, int64_t n, float* out)>;

  struct Tile {
    int64_t first = 0;
    int64_t count = 0;
    Tensor tensor;  // [count, dim]
  };

  // `staging`: the host memory the tiles are filled in (one of its own when
  // null; pass one to uploads that follow each other).
  DeviceRows(Context& context, int64_t count, int64_t dim, int64_t tile_rows, const Fill& fill,
             RowStaging* staging = nullptr);

  int64_t rows() const { return rows_; }
  int64_t dim() const { return dim_; }
  const std::vector<Tile>& tiles() const { return tiles_; }

 private:
  int64_t rows_ = 0;
  int64_t dim_ = 0;
  std::vector<Tile> tiles_;
};

// Rows `indices` of `set`, standardised, on the device.
DeviceRows upload_rows(Context& context, const FeatureSet& set, const std::vector<int64_t>& indices,
                       const Standardizer& standardizer, int64_t tile_rows,
                       RowStaging* staging = nullptr);

struct KernelSpec {
  KernelKind kind = KernelKind::Rbf;
  float gamma = 1.0f;  // ignored by the linear kernel
};

class KernelBlocks {
 public:
  KernelBlocks(Context& context, KernelSpec spec) : context_(context), spec_(spec) {}

  // out[i * ld + j] = K(x_i, y_j); ld = 0 means y.rows() (a dense block).
  void compute(const DeviceRows& x, const DeviceRows& y, float* out, int64_t ld = 0);
  // The same into a new, uninitialised-then-overwritten buffer (zeroing
  // hundreds of MB first would only cost the backend thread time).
  std::unique_ptr<float[]> compute(const DeviceRows& x, const DeviceRows& y);

  // Frees the device output buffer kept between calls.
  void release();

 private:
  Context& context_;
  KernelSpec spec_;
  Tensor output_;               // reused while tile shapes repeat
  std::vector<float> staging_;  // for tiles narrower than ld
};

}  // namespace cae::svm
