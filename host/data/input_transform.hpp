#pragma once
// The network's input transform: per-image contrast normalisation and
// whitening (ZCA or PCA) learned on the training images, applied to every
// image that enters the network (training, test MSE, extraction,
// reconstruction) after the batch is filled and augmented. It is part of the
// model: a checkpoint stores it (nn/checkpoint.cpp) so that extraction applies
// the same transform to the test images as training did to the training ones.
//
// Contrast normalisation, per image of D values x:
//   x' = (x - mean(x)) / sqrt(var(x) + kContrastEpsilon)
// Whitening, learned on the (contrast-normalised) training images with mean
// mu and covariance S = U diag(l) U^T over all D values of an image, with
// e = EPS * trace(S) / D (EPS relative to the mean pixel variance, so one
// value suits [0,1] pixels and contrast-normalised ones alike):
//   zca: W = U diag(1/sqrt(l + e)) U^T     (the whitened image closest to the input)
//   pca: W = diag(1/sqrt(l + e)) U^T       (components, largest first, laid out
//                                          as an image: no spatial meaning left)
//   y = W (x' - mu)
//   patch (data/patch_whitening.hpp): ZCA of S x S patches, applied as a
//   convolution: y = the centre of the whitened patch around every pixel
// Whitened values are not in [0, 1]: the decoder's last convolution has no
// ReLU and the loss is a plain MSE, so the autoencoder reconstructs them as
// they are.

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "data/image_set.hpp"
#include "data/patch_whitening.hpp"
#include "io/safetensors.hpp"

namespace cae {

enum class Whitening { None, Zca, Pca, Patch };

// Coates & Ng's 10 for 0..255 pixels, on the [0, 1] scale: a flat image
// (variance 0) is centred, not divided by zero, and a nearly flat one's
// noise is not blown up to unit deviation.
inline constexpr double kContrastEpsilon = 10.0 / (255.0 * 255.0);
inline constexpr double kDefaultWhiteningEpsilon = 0.1;
inline constexpr double kMaxWhiteningEpsilon = 1e6;
// Patch whitening's S when `--whiten patch` names none, and the sizes it takes.
inline constexpr int kDefaultWhiteningPatch = 5;
inline constexpr int kMaxWhiteningPatch = 15;

struct InputTransformSpec {
  bool contrast_normalize = false;
  Whitening whitening = Whitening::None;
  double whitening_epsilon = kDefaultWhiteningEpsilon;
  int whitening_patch = kDefaultWhiteningPatch;  // patch whitening only

  bool active() const { return contrast_normalize || whitening != Whitening::None; }
  bool operator==(const InputTransformSpec& other) const {
    return contrast_normalize == other.contrast_normalize && whitening == other.whitening &&
           (whitening == Whitening::None || whitening_epsilon == other.whitening_epsilon) &&
           (whitening != Whitening::Patch || whitening_patch == other.whitening_patch);
  }
  bool operator!=(const InputTransformSpec& other) const { return !(*this == other); }
};

// "none", "zca", "zca:EPS", "pca", "pca:EPS" (EPS a finite number >= 0),
// "patch", "patchS", "patchS:EPS", "patch:EPS" (S odd, 1 to 15; EPS > 0);
// anything else throws std::invalid_argument naming the value.
InputTransformSpec parse_whitening(const std::string& text);
// "none", "zca:0.1", "patch5:0.1", ...: parse_whitening's input for the same whitening.
std::string whitening_name(const InputTransformSpec& spec);
// Throws std::invalid_argument naming the value when the whitening cannot
// apply to images of side x side (a patch larger than the image).
void require_whitening_fits(const InputTransformSpec& spec, int side);
// "contrast-normalized, zca:0.1" or "none", for reports.
std::string describe_input_transform(const InputTransformSpec& spec);

// What contrast normalisation took from one image, to give it back for display.
struct ImageScale {
  float mean = 0;
  float deviation = 1;
};

struct InputTransform {
  InputTransformSpec spec;
  size_t dim = 0;             // values per image (channels * side * side)
  std::vector<float> mean;    // mu, dim values (whitening only)
  std::vector<float> matrix;  // W, dim x dim row-major
  std::vector<float> inverse;  // W^-1, dim x dim: reconstructions back to images
  PatchWhitening patch;        // patch whitening's filter and means (instead of the three above)

  // In place on `count` images of dim values each. With `scales`, each
  // image's contrast-normalisation mean and deviation are recorded.
  void apply(float* images, size_t count, std::vector<ImageScale>* scales = nullptr) const;
  // apply()'s two steps, in this order: contrast normalisation (when the
  // spec has it), then the whitening (when it has one). A caller that runs
  // patch whitening's convolution on a backend (nn/batch_transform.hpp)
  // takes the first alone.
  void apply_contrast(float* images, size_t count, std::vector<ImageScale>* scales = nullptr) const;
  void apply_whitening(float* images, size_t count) const;
  // apply() splits contrast normalisation over threads only for batches of
  // at least twice this many images; a caller that parallelises by chunks of
  // this size keeps each chunk on its own thread.
  static constexpr size_t kContrastImagesPerThread = 64;
  // Whether apply() transforms each image on its own (contrast
  // normalisation, patch whitening), so that a batch may be split anywhere
  // without changing a bit; dense whitening is one SGEMM over the batch,
  // whose blocking could change with the rows.
  bool per_image() const {
    return spec.whitening == Whitening::None || spec.whitening == Whitening::Patch;
  }
  // The inverse of apply (given the scales it recorded): whitened values
  // back to [0, 1]-scaled images.
  void restore(float* images, size_t count, const std::vector<ImageScale>& scales) const;

  // The tensors a checkpoint stores ("input.mean", "input.whitening",
  // "input.unwhitening"; patch whitening: "input.mean" [C] and
  // "input.whitening" [C, C, S, S]; none without whitening) and its metadata
  // fields.
  std::vector<NamedTensor> tensors() const;
  void add_metadata(SafetensorsMetadata& metadata) const;
};

// Contrast normalisation of `count` images of `dim` values, in place.
void contrast_normalize(float* images, size_t count, size_t dim,
                        std::vector<ImageScale>* scales = nullptr);

// Calls visit(values, first, n) for every batch of the set's images in order
// (values: n images from image `first` on, as the network reads them,
// contrast-normalised when `contrast`): what learning a whitening reads.
void for_each_learning_batch(const ImageSet& images, bool contrast,
                             const std::function<void(const float*, size_t, size_t)>& visit);

// Learns the transform on `images` (every image, read batch by batch, so a
// set kept on disk works too). Throws std::runtime_error when EPS is 0 and
// the covariance is singular (fewer images than values, constant pixels).
InputTransform learn_input_transform(const ImageSet& images, const InputTransformSpec& spec);

// The transform a checkpoint's metadata and tensors describe (nullptr-like
// inactive transform when it has none); `take` removes the "input." tensors
// from `tensors`. Throws std::runtime_error "<path>: ..." for a field or a
// tensor that is missing, misshapen or not finite.
InputTransform read_input_transform(const SafetensorsMetadata& metadata,
                                    std::vector<NamedTensor>& tensors, size_t image_values,
                                    const std::string& path);

}  // namespace cae
