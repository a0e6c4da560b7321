#include "test_evaluation.hpp"

#include <algorithm>
#include <stdexcept>

#include "data/batcher.hpp"

namespace cae::nn {
namespace {

size_t positive_batch(int batch_size) {
  if (batch_size <= 0) throw std::invalid_argument("the test set's batch size must be positive");
  return size_t(batch_size);
}

}  // namespace

TestEvaluation::TestEvaluation(Context& context, const Autoencoder& model, const ImageSet& images,
                               int batch_size, const TransformedImages& transformed,
                               TestResidency residency)
    : context_(context),
      images_(images),
      transformed_(transformed),
      batch_size_(positive_batch(batch_size)),
      batches_(0),
      image_floats_(size_t(model.network().image_floats())) {
  if (images.size() == 0) return;
  model.network().require_images(images.channels, images.side, "the test set");
  if (transformed.empty()) {
    transform_ = std::make_unique<BatchTransform>(model.input_transform(), &context);
  }
  batches_ = (images.size() + batch_size_ - 1) / batch_size_;
  losses_.reserve(batches_);
  for (size_t b = 0; b < batches_; ++b) losses_.push_back(context.alloc({1}));
  const size_t bytes = images.size() * image_floats_ * sizeof(float);
  const bool fits = context.has_host_memory() && bytes <= kMaxResidentTestBytes;
  if (residency == TestResidency::Uploaded || (residency == TestResidency::Auto && !fits)) return;
  std::vector<float> host(batch_size_ * image_floats_);
  resident_.reserve(batches_);
  for (size_t b = 0; b < batches_; ++b) {
    const size_t n = batch_images(b);
    fill(b, host);
    resident_.push_back(context.alloc(model.network().image_dims(int64_t(n))));
    resident_.back().upload(host.data(), n * image_floats_);
  }
}

size_t TestEvaluation::batch_images(size_t b) const {
  return std::min(images_.size() - b * batch_size_, batch_size_);
}

void TestEvaluation::fill(size_t b, std::vector<float>& host) const {
  const size_t n = batch_images(b);
  std::vector<size_t> indices(n);
  for (size_t i = 0; i < n; ++i) indices[i] = b * batch_size_ + i;
  if (transformed_.empty()) {
    fill_batch(images_, indices, host.data());
    transform_->apply(host.data(), n);
  } else {
    transformed_.fill(indices, {}, host.data());
  }
}

double TestEvaluation::mse(Autoencoder& model) {
  if (batches_ == 0) return 0.0;
  std::vector<float> host(resident() ? 0 : batch_size_ * image_floats_);
  Tensor input, output;  // reallocated only when the batch size changes (the tail)
  for (size_t b = 0; b < batches_; ++b) {
    const int64_t n = int64_t(batch_images(b));
    if (!output || output.dims()[0] != n) output = context_.alloc(model.network().image_dims(n));
    if (resident()) {
      model.reconstruct(resident_[b], output, &losses_[b]);
      continue;
    }
    fill(b, host);
    if (!input || input.dims()[0] != n) input = context_.alloc(output.dims());
    // The host buffer may be refilled once the upload returns (the ABI's
    // contract); the device runs the batches in the order they are queued.
    input.upload(host.data(), size_t(n) * image_floats_);
    model.reconstruct(input, output, &losses_[b]);
  }
  double sum = 0;
  for (size_t b = 0; b < batches_; ++b) {
    float value = 0;
    losses_[b].download(&value, 1);
    sum += double(value) * double(batch_images(b));
  }
  return sum / double(images_.size());
}

}  // namespace cae::nn
