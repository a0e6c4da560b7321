#include "svm/linear_device_groups.hpp"

#include <algorithm>

#include "common/parallel.hpp"
#include "plugin/per_device.hpp"
#include "svm/svm_error.hpp"

namespace cae::svm {

struct DeviceRowGroups::Group {
  int64_t index = 0;   // which group of the pass
  size_t context = 0;  // the context it lives on
  int64_t rows = 0;
  Tensor x;            // [rows, dim]
  Tensor transposed;   // [dim, rows]
  Tensor scores;       // [rows, classes]
  Tensor residuals;    // [classes, rows], R^T
  Tensor product;      // [classes, dim]
};

DeviceRowGroups::DeviceRowGroups(const std::vector<Context*>& contexts, const FeatureSet& train,
                                 const std::vector<int64_t>& rows,
                                 const std::vector<RowRange>& spans,
                                 const std::vector<int64_t>& which, int64_t classes, int threads)
    : contexts_(contexts), classes_(classes), dim_(train.dim), threads_(std::max(1, threads)) {
  if (contexts_.empty()) throw SvmError("the linear classifier's device pass needs a context");
  for (size_t w = 0; w < which.size(); ++w) {
    auto group = std::make_unique<Group>();
    group->index = which[w];
    group->context = w % contexts_.size();
    groups_.push_back(std::move(group));
  }
  const size_t d = static_cast<size_t>(dim_);
  // The host's threads shared among the devices' upload threads: the
  // transpose of a group (rows x dim floats) is their work.
  const int layout_threads = std::max(1, threads / static_cast<int>(contexts_.size()));
  weights_.resize(contexts_.size());
  run_per_device(contexts_.size(), [&](size_t c) {
    Context& context = *contexts_[c];
    std::vector<float> x, t;
    for (const std::unique_ptr<Group>& group : groups_) {
      if (group->context != c) continue;
      const RowRange span = spans[static_cast<size_t>(group->index)];
      const size_t n = span.size();
      group->rows = static_cast<int64_t>(n);
      x.resize(n * d);
      t.resize(n * d);
      // Blocks of kTile rows, each thread its own columns: the block's rows
      // are copied, then transposed from that copy, so every write of the
      // transpose lands in a run of kTile consecutive floats.
      constexpr size_t kTile = 32;
      parallel_chunks(layout_threads, static_cast<int64_t>(d), [&](int64_t first, int64_t last) {
        for (size_t i0 = 0; i0 < n; i0 += kTile) {
          const size_t i1 = std::min(n, i0 + kTile);
          for (size_t i = i0; i < i1; ++i) {
            const float* source = train.row(rows[span.begin + i]);
            std::copy(source + first, source + last, x.begin() + static_cast<long>(i * d) + first);
          }
          for (size_t j = static_cast<size_t>(first); j < static_cast<size_t>(last); ++j) {
            for (size_t i = i0; i < i1; ++i) t[j * n + i] = x[i * d + j];
          }
        }
      });
      group->x = context.alloc({group->rows, dim_});
      group->transposed = context.alloc({dim_, group->rows});
      group->scores = context.alloc({group->rows, classes_});
      group->residuals = context.alloc({classes_, group->rows});
      group->product = context.alloc({classes_, dim_});
      group->x.upload(x);
      group->transposed.upload(t);
    }
    weights_[c] = context.alloc({classes_, dim_});
  });
}

DeviceRowGroups::~DeviceRowGroups() = default;

void DeviceRowGroups::pass(const FoldedWeights& folded,
                           const std::function<void(int64_t, float*)>& residuals,
                           float* products) {
  const size_t kd = static_cast<size_t>(classes_ * dim_);
  const size_t k = static_cast<size_t>(classes_);
  // The host's threads shared among the devices: the residuals of a
  // device's groups (a softmax per row) are computed side by side, where one
  // thread took them group after group.
  const int residual_threads = std::max(1, threads_ / static_cast<int>(contexts_.size()));
  // Each device queues every group's scores before reading any back, and
  // every group's product before reading any back: the host waits for the
  // device once per phase, not once per group. The GEMMs, their operands
  // and the order the host sums the products in do not depend on the
  // threads, so neither does the pass's result.
  run_per_device(contexts_.size(), [&](size_t c) {
    Context& context = *contexts_[c];
    Tensor& weights = weights_[c];
    weights.upload(folded.weights);
    std::vector<Group*> mine;
    for (const std::unique_ptr<Group>& group : groups_) {
      if (group->context == c) mine.push_back(group.get());
    }
    for (Group* group : mine) {
      context.kernel_matrix(group->x, weights, group->scores, CAE_KERNEL_LINEAR, 0.0f);
    }
    // All scores come down before any residual goes up: a download waits
    // for everything queued before it, the products' GEMMs included.
    std::vector<std::vector<float>> all_scores(mine.size());
    for (size_t m = 0; m < mine.size(); ++m) {
      all_scores[m].resize(static_cast<size_t>(mine[m]->rows) * k);
      mine[m]->scores.download(all_scores[m].data(), all_scores[m].size());
    }
    // Residuals R^T of every group at once (each group's on one thread, so
    // its loss and sums add up in row order), then their uploads and GEMMs
    // from this device's thread alone (the ABI's threading rule).
    std::vector<std::vector<float>> all_transposed(mine.size());
    parallel_chunks(residual_threads, static_cast<int64_t>(mine.size()),
                    [&](int64_t first, int64_t last) {
                      for (int64_t m = first; m < last; ++m) {
                        const Group& group = *mine[static_cast<size_t>(m)];
                        const size_t n = static_cast<size_t>(group.rows);
                        std::vector<float>& scores = all_scores[static_cast<size_t>(m)];
                        for (size_t i = 0; i < n; ++i) {
                          for (size_t j = 0; j < k; ++j) scores[i * k + j] += folded.bias[j];
                        }
                        residuals(group.index, scores.data());
                        std::vector<float>& transposed = all_transposed[static_cast<size_t>(m)];
                        transposed.resize(n * k);
                        for (size_t i = 0; i < n; ++i) {
                          for (size_t j = 0; j < k; ++j) transposed[j * n + i] = scores[i * k + j];
                        }
                      }
                    });
    for (size_t m = 0; m < mine.size(); ++m) {
      Group* group = mine[m];
      group->residuals.upload(all_transposed[m]);
      context.kernel_matrix(group->residuals, group->transposed, group->product,
                            CAE_KERNEL_LINEAR, 0.0f);
    }
    for (Group* group : mine) {
      group->product.download(products + static_cast<size_t>(group->index) * kd, kd);
    }
  });
}

}  // namespace cae::svm
