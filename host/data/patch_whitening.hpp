#pragma once
// Patch whitening: ZCA learned on the training images' S x S patches (every
// channel: P = C * S * S values), applied to an image as a convolution whose
// output at each pixel is the centre of the whitened patch around it.
//
// Learning: patches taken on a grid (stride S, offset by the image's index so
// that every offset is seen), each patch's own mean removed (the per-patch
// normalisation of Coates & Ng, its linear part); their covariance
// S_p = U diag(l) U^T, e = EPS * trace(S_p) / P, W_p = U diag(1/sqrt(l + e)) U^T.
// The filter of output channel c is W_p's row of the patch centre's value in
// channel c, with its mean subtracted: applying it to a patch equals applying
// that row to the patch with its mean removed, so the per-patch mean removal
// costs nothing when applied.
// Applying, per image x with per-channel mean mu (learned on the same
// images): y[c] = sum over c', taps of filter[c][c'][tap] * (x[c'] - mu[c'])
// shifted by the tap, nothing added where the tap leaves the image (a border
// pixel sees the mean there). The transform is linear and stays an image of
// the input's shape, so the first layer convolves whitened neighbourhoods.
// Its inverse, for the report's reconstructions, is solved per image by
// conjugate gradients on the normal equations.

#include <cstddef>
#include <string>
#include <vector>

namespace cae {

struct ImageSet;

struct PatchWhitening {
  int channels = 0;
  int side = 0;        // images are side x side
  int patch = 0;       // S, odd
  std::vector<float> mean;    // mu, one value per channel
  std::vector<float> filter;  // [channels][channels][patch][patch]

  size_t image_values() const { return size_t(channels) * size_t(side) * size_t(side); }
  // In place on `count` images of image_values() values each.
  void apply(float* images, size_t count) const;
  // The inverse of apply, in place (display: a reconstruction back to the
  // input's scale).
  void restore(float* images, size_t count) const;
};

// Why an S x S patch cannot whiten side x side images ("--whiten patchS: a
// SxS patch does not fit the NxN images"), or "" when it can: the one check
// the command line (before any work) and learning share.
std::string patch_misfit(int patch, int side);

// Learns it on `images`, after contrast normalisation when `contrast` is set.
// Throws std::runtime_error when the patch does not fit the images or when
// the patches' covariance is singular even with EPS added.
PatchWhitening learn_patch_whitening(const ImageSet& images, int patch, double epsilon,
                                     bool contrast);

}  // namespace cae
