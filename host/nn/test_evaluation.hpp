// The test set's reconstruction error, measured after every training epoch.
// Measured batch by batch with a download of each batch's loss, it held the
// host at every batch (fill the batch, upload it, wait for its loss) while
// the device waited for the next: with 40 batches per CIFAR-10 epoch that is
// 40 round trips per epoch. Here every batch's loss goes to a tensor of its
// own and all are read back once the last batch is queued, so the device
// runs the evaluation back to back; on a backend with memory of its own (it
// offers page-locked host memory: a GPU) the batches are uploaded once for
// the whole run, while they fit kMaxResidentTestBytes. The batches, their
// order and the sum are those of the batch-by-batch loop: the value is the
// same to the bit.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "data/image_set.hpp"
#include "nn/autoencoder.hpp"
#include "nn/batch_transform.hpp"
#include "nn/transformed_images.hpp"
#include "plugin/context.hpp"

namespace cae::nn {

// The device memory the test batches may hold for a whole run (CIFAR-10's
// 10,000 test images take 123 MB).
inline constexpr size_t kMaxResidentTestBytes = size_t(512) << 20;

// Where the test batches live between epochs.
enum class TestResidency {
  Auto,      // on the device where it has memory of its own and they fit
  Uploaded,  // uploaded batch by batch at every evaluation
  Resident,  // uploaded once
};

class TestEvaluation {
 public:
  // `images` (and `transformed`, their input transforms computed beforehand,
  // or empty) must outlive the evaluation. An empty set measures 0.
  TestEvaluation(Context& context, const Autoencoder& model, const ImageSet& images, int batch_size,
                 const TransformedImages& transformed,
                 TestResidency residency = TestResidency::Auto);

  // Mean squared reconstruction error of `model` over the whole set.
  double mse(Autoencoder& model);

  // Whether the batches stay on the device for the whole run.
  bool resident() const { return !resident_.empty(); }

 private:
  // Batch b's images into `host`, transformed as the network sees them.
  void fill(size_t b, std::vector<float>& host) const;
  size_t batch_images(size_t b) const;

  Context& context_;
  const ImageSet& images_;
  const TransformedImages& transformed_;
  size_t batch_size_;
  size_t batches_;
  size_t image_floats_;
  std::vector<Tensor> resident_;  // batch b's input, when resident
  // The input transform, applied batch by batch where `transformed` is empty.
  std::unique_ptr<BatchTransform> transform_;
  std::vector<Tensor> losses_;    // batch b's loss
};

}  // namespace cae::nn
