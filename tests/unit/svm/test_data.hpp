#pragma once
// Shared fixtures of the svm suite: clustered synthetic data, the cpu backend,
// and libsvm's own view of a feature set.

#include <svm.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "plugin/context.hpp"
#include "svm/features.hpp"

namespace cae::svm::test {

// `classes` Gaussian clusters (centres ~ N(0, spread^2), points ~ centre +
// N(0, 1)) with labels 10, 20, 30, ..., rows shuffled so classes interleave.
// The same seed gives the same clusters; `sample` picks different points.
FeatureSet clustered(int classes, int per_class, int dim, double spread, uint64_t seed,
                     uint64_t sample);

// A context of the cpu backend from this build tree (the same one each call).
Context& cpu_context();
// The same backend offering page-locked host memory (its host_alloc is
// malloc): what the host takes for a device with memory of its own.
Context& cpu_with_host_memory();
// A context of its own (for a test's thread standing in for another rank).
std::unique_ptr<Context> new_cpu_context();

// The cpu backend with one optional member taken away (kMember: a pointer
// to a member of cae_backend_table), e.g. without its SVM solver or without
// ABI 1.11's linear_loss: the host's fallback on a real backend's ops.
template <auto kMember>
Context& cpu_without() {
  static const cae_backend_table table = [] {
    cae_backend_table copy = cpu_context().table();
    copy.*kMember = nullptr;
    return copy;
  }();
  static Context context(table, 0, 2);
  return context;
}

// Rows of `set` after `standardizer`, as libsvm node lists (1-based indices).
struct LibsvmRows {
  std::vector<std::vector<svm_node>> rows;
  std::vector<svm_node*> pointers;
  std::vector<double> targets;
};
LibsvmRows to_libsvm(const FeatureSet& set, const Standardizer& standardizer);

// Fraction of equal entries.
double agreement(const std::vector<int32_t>& a, const std::vector<int32_t>& b);

}  // namespace cae::svm::test
