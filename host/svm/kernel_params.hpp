// The SVM kernel and how its gamma is chosen.
#pragma once

#include <cae/backend.h>

#include <cstdint>
#include <string>
#include <vector>

#include "svm/features.hpp"

namespace cae::svm {

enum class KernelKind { Rbf, Linear };

// "rbf" or "linear"; throws SvmError listing the choices otherwise.
KernelKind parse_kernel_kind(const std::string& text);
const char* kernel_kind_name(KernelKind kind);
cae_kernel_kind backend_kernel_kind(KernelKind kind);

// "auto":  1 / dim
// "scale": 1 / (dim * variance of all training values), sklearn's default
//          (1 / dim when that variance is 0)
// number:  that value (> 0)
struct GammaPolicy {
  enum class Mode { Auto, Scale, Value };
  Mode mode = Mode::Scale;
  double value = 0.0;  // for Mode::Value

  // Throws SvmError for anything but "auto", "scale" or a positive number
  // within the normal range of a float (the kernels compute in float).
  static GammaPolicy parse(const std::string& text);
  std::string text() const;
};

// The gamma `policy` gives for `train` as the kernel sees it, i.e. after
// `standardizer` (which may be empty).
double resolve_gamma(const GammaPolicy& policy, const FeatureSet& train,
                     const Standardizer& standardizer, int threads = 0);
// The same over the rows `rows` of `train` only.
double resolve_gamma(const GammaPolicy& policy, const FeatureSet& train,
                     const std::vector<int64_t>& rows, const Standardizer& standardizer,
                     int threads = 0);

}  // namespace cae::svm
