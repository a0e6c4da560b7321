#include "nn/batch_transform.hpp"

namespace cae::nn {

BatchTransform::BatchTransform(const InputTransform* transform, Context* context)
    : transform_(transform && transform->spec.active() ? transform : nullptr) {
  if (!transform_ || transform_->spec.whitening != Whitening::Patch) return;
  const PatchWhitening& patch = transform_->patch;
  const std::string size = std::to_string(patch.patch) + "x" + std::to_string(patch.patch);
  const std::string what = "patch whitening's " + size + " convolution";
  if (!context) {
    placement_ = what + " on the host";
    return;
  }
  auto backend = std::make_unique<BackendPatchWhitening>(*context, patch);
  const std::string refusal = backend->refusal();
  if (!refusal.empty()) {
    placement_ = what + " on the host: " + refusal;
    return;
  }
  backend_ = std::move(backend);
  placement_ = what + " on the backend (" + context->backend_name() + ")";
}

BatchTransform::~BatchTransform() = default;
BatchTransform::BatchTransform(BatchTransform&&) noexcept = default;
BatchTransform& BatchTransform::operator=(BatchTransform&&) noexcept = default;

void BatchTransform::apply(float* images, size_t count) {
  if (!transform_) return;
  transform_->apply_contrast(images, count);
  apply_whitening(images, count);
}

void BatchTransform::apply_whitening(float* images, size_t count) {
  if (!transform_) return;
  if (backend_) {
    backend_->apply(images, count);
  } else {
    transform_->apply_whitening(images, count);
  }
}

}  // namespace cae::nn
