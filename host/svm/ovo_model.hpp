// A trained one-vs-one SVM, self-contained: prediction needs neither the
// training set nor libsvm.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/uninitialized_buffer.hpp"
#include "svm/class_layout.hpp"
#include "svm/feature_origin.hpp"
#include "svm/features.hpp"
#include "svm/kernel_params.hpp"
#include "svm/pair_solver.hpp"

namespace cae::svm {

// dec(x) = sum_k coef[k] K(sv[support[k]], x) - rho; dec > 0 votes for first.
struct PairDecision {
  ClassPair pair;
  std::vector<int32_t> support;  // indices into OvoModel's support vectors, ascending
  std::vector<float> coef;
  float rho = 0.0f;
};

struct OvoModel {
  std::vector<int32_t> classes;  // labels, ascending; class index = position
  KernelKind kernel = KernelKind::Rbf;
  float gamma = 0.0f;  // as the backend computes with it; unused by the linear kernel
  double C = 1.0;
  Standardizer standardizer;  // empty: features are used as they are
  int64_t dim = 0;

  // The union of every pair's support vectors, in the standardised space,
  // grouped by class (class index non-decreasing), as libsvm's model file
  // stores them.
  int64_t sv_count = 0;
  UninitializedBuffer<float> sv_rows;  // [sv_count, dim]
  std::vector<int32_t> sv_class;   // class index of each support vector
  std::vector<int64_t> sv_source;  // its training row (informational; -1 when unknown)

  std::vector<PairDecision> pairs;  // in class_pairs() order

  // What produced the features it was trained on (features.json); empty
  // when unknown (features not written by cae). `cae evaluate` refuses to
  // combine the model with other weights, another recipe or other data.
  FeatureOrigin origin;
  // How SMO held the kernel while training ("float32" or "unorm16",
  // kernel_values.hpp); empty when not recorded (libsvm, older files).
  std::string kernel_values;

  int32_t class_count() const { return static_cast<int32_t>(classes.size()); }
  const float* sv_row(int64_t k) const { return sv_rows.data() + k * dim; }

  // Throws SvmError("<where>: <first inconsistency>").
  void validate(const std::string& where) const;
};

// Builds the model from the pairs' solutions (any order): the support vector
// union is copied out of `train` through `standardizer`.
OvoModel assemble_model(const FeatureSet& train, const ClassLayout& layout,
                        const Standardizer& standardizer, std::vector<PairSolution> solutions,
                        KernelKind kernel, float gamma, double C);

}  // namespace cae::svm
