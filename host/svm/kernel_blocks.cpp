#include "svm/kernel_blocks.hpp"

#include <algorithm>
#include <cstring>
#include <optional>

#include "common/parallel.hpp"
#include "svm/svm_error.hpp"

namespace cae::svm {

float* RowStaging::floats(size_t count) {
  if (buffer_.size() < count) {
    buffer_ = HostBuffer();  // the old block goes back before the larger one is taken
    buffer_ = HostBuffer(context_, count);
  }
  return buffer_.data();
}

DeviceRows::DeviceRows(Context& context, int64_t count, int64_t dim, int64_t tile_rows,
                       const Fill& fill, RowStaging* staging)
    : rows_(count), dim_(dim) {
  if (count <= 0 || dim <= 0 || tile_rows <= 0) {
    throw SvmError("cannot upload " + std::to_string(count) + " rows of dimension " +
                   std::to_string(dim) + " in tiles of " + std::to_string(tile_rows));
  }
  std::optional<RowStaging> own;
  if (staging == nullptr) staging = &own.emplace(context);
  float* host = staging->floats(static_cast<size_t>(std::min(tile_rows, count) * dim));
  for (int64_t first = 0; first < count; first += tile_rows) {
    const int64_t n = std::min(tile_rows, count - first);
    parallel_chunks(resolve_thread_count(0), n, [&](int64_t begin, int64_t end) {
      fill(first + begin, end - begin, host + static_cast<size_t>(begin * dim));
    });
    Tile tile{first, n, context.alloc({n, dim})};
    tile.tensor.upload(host, static_cast<size_t>(n * dim));
    tiles_.push_back(std::move(tile));
  }
}

DeviceRows upload_rows(Context& context, const FeatureSet& set, const std::vector<int64_t>& indices,
                       const Standardizer& standardizer, int64_t tile_rows, RowStaging* staging) {
  const size_t dim = static_cast<size_t>(set.dim);
  // DeviceRows already calls this on every core, each with a range of its
  // own: splitting each range again would start threads from threads.
  return DeviceRows(context, static_cast<int64_t>(indices.size()), set.dim, tile_rows,
                    [&](int64_t first, int64_t n, float* out) {
                      for (int64_t i = 0; i < n; ++i) {
                        const float* row = set.row(indices[static_cast<size_t>(first + i)]);
                        std::memcpy(out + static_cast<size_t>(i) * dim, row, dim * sizeof(float));
                      }
                      standardizer.apply(out, n);
                    },
                    staging);
}

Tensor& reshaped(Context& context, Tensor& tensor, int64_t rows, int64_t cols) {
  if (!tensor || tensor.dims() != std::vector<int64_t>{rows, cols}) {
    tensor = Tensor();
    tensor = context.alloc({rows, cols});
  }
  return tensor;
}

void rbf_kernels_from_one_product(Context& context, const Tensor& x, const Tensor& y,
                                  Tensor& product, const std::vector<GammaKernel>& kernels) {
  Tensor& linear = reshaped(context, product, x.dims()[0], y.dims()[0]);
  context.kernel_matrix(x, y, linear, CAE_KERNEL_LINEAR, 0.0f);
  for (const GammaKernel& k : kernels) context.kernel_rbf_from_linear(x, y, linear, *k.kernel, k.gamma);
}

void KernelBlocks::compute(const DeviceRows& x, const DeviceRows& y, float* out, int64_t ld) {
  if (x.dim() != y.dim()) {
    throw SvmError("kernel between rows of dimension " + std::to_string(x.dim()) + " and " +
                   std::to_string(y.dim()));
  }
  const int64_t width = ld > 0 ? ld : y.rows();
  if (width < y.rows()) throw SvmError("kernel block wider than its output rows");
  const cae_kernel_kind kind = backend_kernel_kind(spec_.kind);
  for (const DeviceRows::Tile& xt : x.tiles()) {
    for (const DeviceRows::Tile& yt : y.tiles()) {
      Tensor& k = reshaped(context_, output_, xt.count, yt.count);
      context_.kernel_matrix(xt.tensor, yt.tensor, k, kind, spec_.gamma);
      float* corner = out + xt.first * width + yt.first;
      const size_t values = static_cast<size_t>(xt.count * yt.count);
      if (yt.count == width) {  // the tile spans whole output rows: download in place
        k.download(corner, values);
        continue;
      }
      staging_.resize(values);
      k.download(staging_.data(), values);
      for (int64_t i = 0; i < xt.count; ++i) {
        std::memcpy(corner + i * width, staging_.data() + i * yt.count,
                    static_cast<size_t>(yt.count) * sizeof(float));
      }
    }
  }
}

std::unique_ptr<float[]> KernelBlocks::compute(const DeviceRows& x, const DeviceRows& y) {
  std::unique_ptr<float[]> out(new float[static_cast<size_t>(x.rows() * y.rows())]);
  compute(x, y, out.get());
  return out;
}

void KernelBlocks::release() {
  output_ = Tensor();
  staging_ = std::vector<float>();
}

}  // namespace cae::svm
