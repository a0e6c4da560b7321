// The linear classifier's passes over its rows on the backend's devices
// (`--linear-on backend`): each fixed group of rows (a few large ones,
// svm/linear_trainer.cpp) is uploaded once and transposed (on the device
// where it offers ABI 1.11's transpose, else on the host and uploaded), and
// every pass of L-BFGS is two GEMMs per group through
// the ABI's kernel_matrix (LINEAR: K = X Y^T), scores = X W^T and the
// group's gradient R^T X. Between them the loss and its residuals R: where
// every device offers ABI 1.11's linear_loss (and no option turns it off),
// on the devices, so that only the group's classes x dim product and its
// blocks' sums go down; otherwise on the host, the scores going down (rows
// x classes floats) and the residuals coming back up. Transfers go through
// page-locked host buffers where the backend offers them (host_alloc).
// The groups are fixed and summed in group order, so the model does not
// depend on how many devices there are; it differs from the host pass's by
// the GEMMs' rounding and the grouping (and by the backend's precision:
// docs/classifiers.md).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "common/row_range.hpp"
#include "plugin/context.hpp"
#include "plugin/host_buffer.hpp"
#include "svm/features.hpp"
#include "svm/linear_scores.hpp"

namespace cae::svm {

// The loss computed on the devices: which one, the scale of its residuals
// (1 / the rows), and the class of every entry of the rows.
struct DeviceLoss {
  cae_linear_loss_kind kind = CAE_LINEAR_LOSS_CROSS_ENTROPY;
  float scale = 1.0f;
  const std::vector<int32_t>* targets = nullptr;
};

class DeviceRowGroups {
 public:
  // Uploads the groups `which` (their rows: entries `spans[g]` of `rows`,
  // rows of `train`), group after group onto contexts in turn; `threads`
  // host threads lay the groups out. Each span begins at a multiple of
  // `block_rows`, the rows the residuals callback of pass() takes at once.
  DeviceRowGroups(const std::vector<Context*>& contexts, const FeatureSet& train,
                  const std::vector<int64_t>& rows, const std::vector<RowRange>& spans,
                  const std::vector<int64_t>& which, int64_t classes, int64_t block_rows,
                  int threads, const DeviceLoss& loss);
  ~DeviceRowGroups();

  // Whether the passes compute the loss on the devices (pass_with_losses),
  // and where, in words for the log: "on the backend (v4)" or "on the host:
  // <why>".
  bool losses_on_devices() const { return losses_on_devices_; }
  const std::string& loss_placement() const { return loss_placement_; }

  // One pass with the loss on the devices (losses_on_devices() only): every
  // group's product, and block_sums(g) its blocks' sums as linear_loss
  // wrote them ([blocks, classes + 1, 2] floats).
  void pass_with_losses(const FoldedWeights& folded);
  const float* block_sums(int64_t g) const;

  // One pass: for every group, scores = X_g W^T + b (row-major [rows,
  // classes]); residuals(first, n, scores) turns the scores of the rows
  // [first, first + n) of `rows` (one block of at most block_rows rows, first
  // a multiple of it) into R in place on the host; then product(g)
  // (classes x dim floats) = R^T X_g. The blocks of a group run on the
  // host's threads side by side (`residuals` must take different blocks at
  // once) while the devices multiply the groups before it. Call from the thread that made this
  // object's owner (svm/kept_threads.hpp), each context staying on its own kept thread.
  using ResidualsFunction = std::function<void(int64_t, int64_t, float*)>;
  void pass(const FoldedWeights& folded, const ResidualsFunction& residuals);

  // Seconds the passes so far spent in the backend's calls (queueing the
  // products, the transfers, and waiting for the devices), summed.
  double backend_seconds() const { return backend_seconds_; }

  // Group g's product from the last pass (g one of `which`), in host memory
  // the backend's DMA writes directly where it offers page-locked memory.
  const float* product(int64_t g) const;

 private:
  struct Group;
  struct Block;
  std::vector<Context*> contexts_;
  std::vector<std::unique_ptr<Group>> groups_;
  std::vector<Group*> by_index_;  // by_index_[g]: group g, or null when not one of `which`
  std::vector<Block> blocks_;     // every group's blocks, in group order
  // Rounds of one group per device: round r's blocks are
  // blocks_[round_first_block_[r], round_first_block_[r + 1]).
  std::vector<size_t> round_first_block_;
  std::vector<std::vector<Group*>> on_context_;  // the groups of each context
  std::vector<Tensor> weights_;                  // [classes, dim] per context, uploaded each pass
  std::vector<HostBuffer> host_weights_;         // the folded weights, per context
  std::vector<Tensor> bias_;                     // [classes] per context, with losses on devices
  std::vector<HostBuffer> host_bias_;
  DeviceLoss loss_;
  bool losses_on_devices_ = false;
  std::string loss_placement_;
  int64_t classes_ = 0;
  int64_t dim_ = 0;
  int64_t block_rows_ = 1;
  int threads_ = 1;
  double backend_seconds_ = 0.0;

  void residual_block(const Block& block, const FoldedWeights& folded,
                      const ResidualsFunction& residuals);
  Group& group_at(int64_t g) const;
  // X^T of the group's rows on its device (false, nothing done: the device
  // offers no transpose, or not of this size).
  static bool transpose_on_device(Context& context, Group& group);
  static void transpose_on_host(const float* x, size_t n, size_t d, int threads, float* t);
  // Empty when every context computes the loss; else why not.
  std::string loss_refusal() const;
  // In the timed section: the folded weights (and, with losses on the
  // devices, the bias) into context c's tensors.
  void upload_weights(size_t c, const FoldedWeights& folded, bool with_bias);
};

}  // namespace cae::svm
