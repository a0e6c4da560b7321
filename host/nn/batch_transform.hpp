// The model's input transform (data/input_transform.hpp) as one context
// applies it to batches: patch whitening's convolution on that context's
// backend when the backend runs it (nn/backend_patch_whitening.hpp), every
// other part (contrast normalisation, the mean's subtraction, dense ZCA or
// PCA) on the host. Where the backend cannot run the convolution (a backend
// of 3x3 kernels only facing a 5x5 patch), the host convolves, and
// placement() says so in words for the run's log: never silently.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "data/input_transform.hpp"
#include "nn/backend_patch_whitening.hpp"
#include "plugin/context.hpp"

namespace cae::nn {

class BatchTransform {
 public:
  // No transform: apply() does nothing.
  BatchTransform() = default;
  // `transform` (may be nullptr) and `context` (may be nullptr: all on the
  // host) must outlive this object, which uses the context from the
  // calling thread only.
  BatchTransform(const InputTransform* transform, Context* context);
  ~BatchTransform();
  BatchTransform(BatchTransform&&) noexcept;
  BatchTransform& operator=(BatchTransform&&) noexcept;

  const InputTransform* transform() const { return transform_; }
  // Whether patch whitening's convolution runs on the backend.
  bool whitens_on_backend() const { return backend_ != nullptr; }
  // For the log, with a patch whitening: "patch whitening's 5x5 convolution
  // on the backend (v4)" or "... on the host: <the backend's reason>"; ""
  // without one.
  const std::string& placement() const { return placement_; }

  // The whole transform, in place on `count` images.
  void apply(float* images, size_t count);
  // Its whitening alone (the contrast normalisation done before).
  void apply_whitening(float* images, size_t count);

 private:
  const InputTransform* transform_ = nullptr;
  std::unique_ptr<BackendPatchWhitening> backend_;
  std::string placement_;
};

}  // namespace cae::nn
