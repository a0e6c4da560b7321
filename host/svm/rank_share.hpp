// Which group of processes an SVM training's class pairs are spread over
// (svm/pair_share.hpp says how).
#pragma once

#include "plugin/context.hpp"
#include "plugin/process_group.hpp"

namespace cae::svm {

// The group and its context (where its tensors live); `group` null: one
// process solves every pair.
struct RankShare {
  ProcessGroup* group = nullptr;
  Context* context = nullptr;

  bool spread() const { return group != nullptr && group->world() > 1; }
};

}  // namespace cae::svm
