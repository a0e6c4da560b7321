// The linear classifier's passes over its rows on the backend's devices
// (`--linear-on backend`): each fixed group of rows (a few large ones,
// svm/linear_trainer.cpp) is uploaded once, as it is and transposed, and
// every pass of L-BFGS is two GEMMs per group through
// the ABI's kernel_matrix (LINEAR: K = X Y^T), scores = X W^T and the
// group's gradient R^T X, with only the scores going down to the host (rows
// x classes floats) for the softmax, the residuals R coming back up and the
// group's classes x dim product going down. The groups are fixed and summed
// in group order, so the model does not depend on how many devices there
// are; it differs from the host pass's by the GEMMs' rounding and the
// grouping (and by the backend's precision: docs/classifiers.md).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "common/row_range.hpp"
#include "plugin/context.hpp"
#include "svm/features.hpp"
#include "svm/linear_scores.hpp"

namespace cae::svm {

class DeviceRowGroups {
 public:
  // Uploads the groups `which` (their rows: entries `spans[g]` of `rows`,
  // rows of `train`), group after group onto contexts in turn; `threads`
  // host threads lay the groups out.
  DeviceRowGroups(const std::vector<Context*>& contexts, const FeatureSet& train,
                  const std::vector<int64_t>& rows, const std::vector<RowRange>& spans,
                  const std::vector<int64_t>& which, int64_t classes, int threads);
  ~DeviceRowGroups();

  // One pass: for every group g, scores = X_g W^T + b (row-major [rows, classes]),
  // residuals(g, scores) turns them into R in place on the host, and
  // products[g] (classes x dim floats) = R^T X_g. The groups' residuals run
  // on the host's threads side by side: `residuals` must take different
  // groups at once. Call from the thread that made this object's owner
  // (svm/kept_threads.hpp), each context staying on its own kept thread.
  void pass(const FoldedWeights& folded, const std::function<void(int64_t, float*)>& residuals,
            float* products);

 private:
  struct Group;
  std::vector<Context*> contexts_;
  std::vector<std::unique_ptr<Group>> groups_;
  std::vector<std::vector<Group*>> on_context_;  // the groups of each context
  std::vector<Tensor> weights_;                  // [classes, dim] per context, uploaded each pass
  int64_t classes_ = 0;
  int64_t dim_ = 0;
  int threads_ = 1;
};

}  // namespace cae::svm
