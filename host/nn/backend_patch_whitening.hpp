// Patch whitening's convolution (data/patch_whitening.hpp) run by a backend:
// the per-channel mean is subtracted on the host (one pass over the values),
// then the backend's conv2d_forward applies the learned C x C x S x S filter
// with no bias. Its zero "same" padding of S/2 is the host convolution's
// border rule (a tap that leaves the image adds nothing to the centred
// values), so both compute one function; they differ only by the rounding of
// the backend's convolution (a GPU backend's FP32, TF32 or BF16 products, as
// cae-conformance bounds them for conv2d_forward). The convolution is
// C * S^2 multiply-adds per value, the mean one subtraction: on a GPU the
// whole training set's whitening takes a fraction of what the host's cores
// take.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "data/patch_whitening.hpp"
#include "plugin/context.hpp"

namespace cae::nn {

class BackendPatchWhitening {
 public:
  // The images a convolution call takes at most.
  static constexpr size_t kChunkImages = 256;
  // The mean's subtraction takes a host thread per this many images of a chunk.
  static constexpr size_t kImagesPerThread = 16;

  // Uploads the filter. `context` and `whitening` must outlive this object.
  BackendPatchWhitening(Context& context, const PatchWhitening& whitening);

  // "" when the backend runs this convolution (one image's conv2d_forward
  // at its shape succeeds), else the backend's reason (its UNSUPPORTED
  // message: a backend of 3x3 kernels only, say); apply() then must not be
  // called. Other failures throw BackendError.
  std::string refusal();

  // In place on `count` images of whitening.image_values() values each:
  // what PatchWhitening::apply computes, on the backend.
  void apply(float* images, size_t count);

 private:
  Context& context_;
  const PatchWhitening& whitening_;
  Tensor filter_;  // [C, C, S, S]
  Tensor bias_;    // [C], zeros
  Tensor input_;   // [n, C, side, side], the centred images
  Tensor output_;  // the same shape, the whitened images
  std::vector<float> centred_;
};

}  // namespace cae::nn
