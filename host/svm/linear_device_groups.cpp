#include "svm/linear_device_groups.hpp"

#include <algorithm>
#include <chrono>
#include <string>

#include "common/parallel.hpp"
#include "plugin/backend_error.hpp"
#include "plugin/per_device.hpp"
#include "svm/elapsed_seconds.hpp"
#include "svm/kept_threads.hpp"
#include "svm/svm_error.hpp"

namespace cae::svm {

struct DeviceRowGroups::Group {
  int64_t index = 0;   // which group of the pass
  size_t context = 0;  // the context it lives on
  int64_t begin = 0;   // its first row: entry `begin` of the rows
  int64_t rows = 0;
  Tensor x;                   // [rows, dim]
  Tensor transposed;          // [dim, rows]
  Tensor scores;              // [rows, classes]
  Tensor residuals;           // [classes, rows], R^T
  Tensor product;             // [classes, dim]
  Tensor targets;             // [rows], with losses on the devices
  Tensor sums;                // [blocks, classes + 1, 2], with losses on the devices
  HostBuffer host_scores;     // [rows, classes], then the residuals R
  HostBuffer host_residuals;  // [classes, rows], R^T
  HostBuffer host_product;    // [classes, dim]
  HostBuffer host_sums;       // the sums, with losses on the devices
};

// One block of a group's rows, the unit the host's threads share.
struct DeviceRowGroups::Block {
  Group* group = nullptr;
  int64_t offset = 0;  // its first row within the group
};

DeviceRowGroups::DeviceRowGroups(const std::vector<Context*>& contexts, const FeatureSet& train,
                                 const std::vector<int64_t>& rows,
                                 const std::vector<RowRange>& spans,
                                 const std::vector<int64_t>& which, int64_t classes,
                                 int64_t block_rows, int threads, const DeviceLoss& loss)
    : contexts_(contexts),
      classes_(classes),
      dim_(train.dim),
      block_rows_(std::max<int64_t>(1, block_rows)),
      threads_(std::max(1, threads)) {
  if (contexts_.empty()) throw SvmError("the linear classifier's device pass needs a context");
  for (size_t w = 0; w < which.size(); ++w) {
    if (which[w] < 0) throw SvmError("the linear classifier's device pass got a negative group");
    auto group = std::make_unique<Group>();
    group->index = which[w];
    group->context = w % contexts_.size();
    const size_t index = static_cast<size_t>(which[w]);
    if (by_index_.size() <= index) by_index_.resize(index + 1, nullptr);
    by_index_[index] = group.get();
    groups_.push_back(std::move(group));
  }
  const size_t d = static_cast<size_t>(dim_);
  // The host's threads shared among the devices' upload threads: laying a
  // group out (rows x dim floats) is their work.
  const int layout_threads = std::max(1, threads / static_cast<int>(contexts_.size()));
  weights_.resize(contexts_.size());
  host_weights_.resize(contexts_.size());
  run_per_device(contexts_.size(), [&](size_t c) {
    Context& context = *contexts_[c];
    std::vector<float> x, t;
    for (const std::unique_ptr<Group>& group : groups_) {
      if (group->context != c) continue;
      const RowRange span = spans[static_cast<size_t>(group->index)];
      const size_t n = span.size();
      group->begin = static_cast<int64_t>(span.begin);
      group->rows = static_cast<int64_t>(n);
      x.resize(n * d);
      parallel_chunks(layout_threads, static_cast<int64_t>(n), [&](int64_t first, int64_t last) {
        for (int64_t i = first; i < last; ++i) {
          const float* source = train.row(rows[span.begin + static_cast<size_t>(i)]);
          std::copy(source, source + d, x.begin() + i * static_cast<long>(d));
        }
      });
      group->x = context.alloc({group->rows, dim_});
      group->transposed = context.alloc({dim_, group->rows});
      group->scores = context.alloc({group->rows, classes_});
      group->residuals = context.alloc({classes_, group->rows});
      group->product = context.alloc({classes_, dim_});
      group->x.upload(x);
      // X^T for the gradient's product: made on the device where it offers
      // ABI 1.11's transpose (the rows cross the bus once, and the host
      // does not transpose them), else here.
      if (!transpose_on_device(context, *group)) {
        t.resize(n * d);
        transpose_on_host(x.data(), n, d, layout_threads, t.data());
        group->transposed.upload(t);
      }
      group->host_product = HostBuffer(context, static_cast<size_t>(classes_) * d);
    }
    weights_[c] = context.alloc({classes_, dim_});
    host_weights_[c] = HostBuffer(context, static_cast<size_t>(classes_) * d);
  });
  loss_ = loss;
  loss_placement_ = loss_refusal();
  losses_on_devices_ = loss_placement_.empty();
  if (losses_on_devices_) {
    loss_placement_ = "on the backend (" + contexts_.front()->backend_name() + ")";
  } else {
    loss_placement_ = "on the host: " + loss_placement_;
  }
  // The buffers of the way the loss is computed, and only those.
  bias_.resize(contexts_.size());
  host_bias_.resize(contexts_.size());
  run_per_device(contexts_.size(), [&](size_t c) {
    Context& context = *contexts_[c];
    const size_t k = static_cast<size_t>(classes_);
    for (const std::unique_ptr<Group>& group : groups_) {
      if (group->context != c) continue;
      const size_t n = static_cast<size_t>(group->rows);
      if (!losses_on_devices_) {
        group->host_scores = HostBuffer(context, n * k);
        group->host_residuals = HostBuffer(context, n * k);
        continue;
      }
      const int64_t blocks =
          (group->rows + CAE_LINEAR_LOSS_BLOCK_ROWS - 1) / CAE_LINEAR_LOSS_BLOCK_ROWS;
      std::vector<float> targets(n);
      for (size_t i = 0; i < n; ++i) {
        targets[i] = static_cast<float>((*loss_.targets)[static_cast<size_t>(group->begin) + i]);
      }
      group->targets = context.alloc({group->rows});
      group->targets.upload(targets);
      group->sums = context.alloc({blocks, classes_ + 1, 2});
      group->host_sums = HostBuffer(context, static_cast<size_t>(blocks) * (k + 1) * 2);
    }
    if (losses_on_devices_) {
      bias_[c] = context.alloc({classes_});
      host_bias_[c] = HostBuffer(context, k);
    }
  });
  on_context_.resize(contexts_.size());
  for (size_t w = 0; w < groups_.size(); ++w) {
    Group* group = groups_[w].get();
    on_context_[group->context].push_back(group);
    if (w % contexts_.size() == 0) round_first_block_.push_back(blocks_.size());
    for (int64_t offset = 0; offset < group->rows; offset += block_rows_) {
      blocks_.push_back({group, offset});
    }
  }
  round_first_block_.push_back(blocks_.size());
}

DeviceRowGroups::~DeviceRowGroups() = default;

bool DeviceRowGroups::transpose_on_device(Context& context, Group& group) {
  if (!context.has_transpose()) return false;
  try {
    context.transpose(group.x, group.transposed);
  } catch (const BackendError& error) {
    if (error.status() != CAE_STATUS_UNSUPPORTED) throw;  // a matrix too large for it
    return false;
  }
  return true;
}

void DeviceRowGroups::transpose_on_host(const float* x, size_t n, size_t d, int threads, float* t) {
  // Bands of kTile rows, each thread its own columns, so that every write
  // of the transpose lands in a run of kTile consecutive floats.
  constexpr size_t kTile = 32;
  parallel_chunks(threads, static_cast<int64_t>(d), [&](int64_t first, int64_t last) {
    for (size_t i0 = 0; i0 < n; i0 += kTile) {
      const size_t i1 = std::min(n, i0 + kTile);
      for (size_t j = static_cast<size_t>(first); j < static_cast<size_t>(last); ++j) {
        for (size_t i = i0; i < i1; ++i) t[j * n + i] = x[i * d + j];
      }
    }
  });
}

DeviceRowGroups::Group& DeviceRowGroups::group_at(int64_t g) const {
  Group* group = g >= 0 && static_cast<size_t>(g) < by_index_.size()
                     ? by_index_[static_cast<size_t>(g)]
                     : nullptr;
  if (!group) {
    throw SvmError("the linear classifier's device pass holds no group " + std::to_string(g));
  }
  return *group;
}

const float* DeviceRowGroups::product(int64_t g) const { return group_at(g).host_product.data(); }

const float* DeviceRowGroups::block_sums(int64_t g) const {
  if (!losses_on_devices_) {
    throw SvmError("the linear classifier's device pass computes no loss on the devices");
  }
  return group_at(g).host_sums.data();
}

// A call with one row on every context: a backend without the member, or
// whose option turns it off (UNSUPPORTED), leaves the loss to the host.
std::string DeviceRowGroups::loss_refusal() const {
  if (!loss_.targets) return "not asked for";
  for (Context* context : contexts_) {
    const std::string name = context->backend_name();
    if (!context->has_linear_loss()) return name + " has no linear_loss (ABI 1.11)";
    Tensor scores = context->alloc({1, classes_});
    Tensor bias = context->alloc({classes_});
    Tensor targets = context->alloc({1});
    Tensor residuals = context->alloc({classes_, 1});
    Tensor sums = context->alloc({1, classes_ + 1, 2});
    scores.upload(std::vector<float>(static_cast<size_t>(classes_), 0.0f));
    bias.upload(std::vector<float>(static_cast<size_t>(classes_), 0.0f));
    targets.upload(std::vector<float>{0.0f});
    try {
      context->linear_loss(scores, bias, targets, loss_.kind, 1.0f, residuals, sums);
      context->synchronize();
    } catch (const BackendError& error) {
      if (error.status() != CAE_STATUS_UNSUPPORTED) throw;
      return error.what();
    }
  }
  return "";
}

void DeviceRowGroups::upload_weights(size_t c, const FoldedWeights& folded, bool with_bias) {
  const size_t kd = static_cast<size_t>(classes_ * dim_);
  std::copy(folded.weights.begin(), folded.weights.end(), host_weights_[c].data());
  weights_[c].upload(host_weights_[c].data(), kd);
  if (!with_bias) return;
  std::copy(folded.bias.begin(), folded.bias.end(), host_bias_[c].data());
  bias_[c].upload(host_bias_[c].data(), static_cast<size_t>(classes_));
}

void DeviceRowGroups::residual_block(const Block& block, const FoldedWeights& folded,
                                     const ResidualsFunction& residuals) {
  const size_t k = static_cast<size_t>(classes_);
  Group& group = *block.group;
  const size_t rows = static_cast<size_t>(group.rows);
  const size_t first = static_cast<size_t>(block.offset);
  const size_t n = std::min(static_cast<size_t>(block_rows_), rows - first);
  float* scores = group.host_scores.data() + first * k;
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = 0; j < k; ++j) scores[i * k + j] += folded.bias[j];
  }
  residuals(group.begin + block.offset, static_cast<int64_t>(n), scores);
  float* transposed = group.host_residuals.data();
  for (size_t j = 0; j < k; ++j) {
    for (size_t i = 0; i < n; ++i) transposed[j * rows + first + i] = scores[i * k + j];
  }
}

void DeviceRowGroups::pass(const FoldedWeights& folded, const ResidualsFunction& residuals) {
  if (losses_on_devices_) {
    throw SvmError("the linear classifier's device pass computes its loss on the devices");
  }
  const size_t kd = static_cast<size_t>(classes_ * dim_);
  const size_t devices = contexts_.size();
  // Each device's work on its own thread. First every group's scores are
  // queued and read back (the host waits for a device once, not once per
  // group). Then, in rounds of one group per device, the host computes the
  // round's residuals, every block of them side by side on its kept threads
  // (a softmax per row), and queues their upload and the round's gradient
  // products, which the devices run while the host computes the next
  // round's residuals. Last the products are read back. The GEMMs, their
  // operands and the order the host sums the blocks and products in do not
  // depend on the threads or devices, so neither does the pass's result.
  auto timed = [&](size_t count, const std::function<void(size_t)>& work) {
    const auto started = std::chrono::steady_clock::now();
    run_per_device(count, work);
    backend_seconds_ += seconds_since(started);
  };
  timed(devices, [&](size_t c) {
    Context& context = *contexts_[c];
    upload_weights(c, folded, false);
    const std::vector<Group*>& list = on_context_[c];
    for (Group* group : list) {
      context.kernel_matrix(group->x, weights_[c], group->scores, CAE_KERNEL_LINEAR, 0.0f);
    }
    // A download waits for everything queued before it.
    for (Group* group : list) {
      group->scores.download(group->host_scores.data(), group->host_scores.size());
    }
  });
  for (size_t round = 0; round + 1 < round_first_block_.size(); ++round) {
    const size_t first_block = round_first_block_[round];
    for_each_item_kept(threads_, static_cast<int64_t>(round_first_block_[round + 1] - first_block),
                       [&](int64_t b) {
                         residual_block(blocks_[first_block + static_cast<size_t>(b)], folded,
                                        residuals);
                       });
    // Group round * devices + c lives on context c.
    const size_t first_group = round * devices;
    timed(std::min(devices, groups_.size() - first_group), [&](size_t c) {
      Group& group = *groups_[first_group + c];
      group.residuals.upload(group.host_residuals.data(), group.host_residuals.size());
      contexts_[c]->kernel_matrix(group.residuals, group.transposed, group.product,
                                  CAE_KERNEL_LINEAR, 0.0f);
    });
  }
  timed(devices, [&](size_t c) {
    for (Group* group : on_context_[c]) group->product.download(group->host_product.data(), kd);
  });
}

void DeviceRowGroups::pass_with_losses(const FoldedWeights& folded) {
  if (!losses_on_devices_) {
    throw SvmError("the linear classifier's device pass computes no loss on the devices");
  }
  const size_t kd = static_cast<size_t>(classes_ * dim_);
  // Every device queues its groups' three calls and then the downloads,
  // which wait for them: the host waits once per device and pass.
  const auto started = std::chrono::steady_clock::now();
  run_per_device(contexts_.size(), [&](size_t c) {
    Context& context = *contexts_[c];
    upload_weights(c, folded, true);
    for (Group* group : on_context_[c]) {
      context.kernel_matrix(group->x, weights_[c], group->scores, CAE_KERNEL_LINEAR, 0.0f);
      context.linear_loss(group->scores, bias_[c], group->targets, loss_.kind, loss_.scale,
                          group->residuals, group->sums);
      context.kernel_matrix(group->residuals, group->transposed, group->product, CAE_KERNEL_LINEAR,
                            0.0f);
    }
    for (Group* group : on_context_[c]) {
      group->product.download(group->host_product.data(), kd);
      group->sums.download(group->host_sums.data(), group->host_sums.size());
    }
  });
  backend_seconds_ += seconds_since(started);
}

}  // namespace cae::svm
