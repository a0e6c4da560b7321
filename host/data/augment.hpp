#pragma once
// Training augmentation applied to a filled batch (NCHW floats in [0, 1]):
// random horizontal flips, random shifts by up to kMaxShift pixels, and
// Gaussian input noise for denoising. The random draws of a batch depend only
// on (seed, epoch, batch number), so a run resumed mid-epoch sees the same
// augmented batches as an uninterrupted one.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace cae {

enum class Augmentation { None, Flip, FlipCrop };

// "none", "flip", "flip-crop"; anything else throws std::invalid_argument
// naming the value and the accepted ones.
Augmentation parse_augmentation(const std::string& name);
const char* augmentation_name(Augmentation augmentation);

// Mirrors `count` NCHW images of `channels` x side x side left-right from
// `in` into `out` (not in place).
void mirror_images(const float* in, float* out, size_t count, int channels, int side);

// What augmentation does to one image: mirrored left-right (first), then
// shifted by dx, dy, the pixels shifted in being zero.
struct ImageMove {
  bool mirror = false;
  int dx = 0, dy = 0;
};

// Moves each of `count` NCHW images of `channels` x side x side in place by
// its own entry of `moves`. Each image on its own: a caller may split a
// batch over threads.
void move_images(float* images, const ImageMove* moves, size_t count, int channels, int side);

class BatchAugmenter {
 public:
  static constexpr int kMaxShift = 2;

  BatchAugmenter(Augmentation augmentation, uint64_t seed);

  bool active() const { return augmentation_ != Augmentation::None; }

  // Each image independently: flipped with probability 1/2 (Flip, FlipCrop),
  // then shifted by dx, dy in [-kMaxShift, kMaxShift] (FlipCrop), the pixels
  // shifted in being zero, as in the usual pad-and-crop.
  // The images are `channels` x side x side.
  void apply(float* batch, size_t count, int channels, int side, size_t epoch,
             size_t batch_number) const;

  // The draws apply() makes for a batch of `count` images, in the batch's
  // order (a flip, then a shift, per image); none moves an image when
  // inactive. apply() is move_images() over them.
  std::vector<ImageMove> moves(size_t count, size_t epoch, size_t batch_number) const;

  // For Flip (and None: all false): which of the batch's `count` images
  // apply() mirrors, from the same draws, so a caller holding the images'
  // mirrors already can pick them instead. std::logic_error for FlipCrop,
  // whose shifts no such choice can stand for.
  std::vector<bool> flips(size_t count, size_t epoch, size_t batch_number) const;

 private:
  Augmentation augmentation_;
  uint64_t seed_;
};

// Input noise for denoising: N(0, sigma^2) added to every value of a batch.
// The draws are the ABI's normal draws (cae_normal_draw, cae/backend.h) of
// one stream per (seed, epoch, batch number): a resumed epoch repeats them,
// and a backend that adds the noise where the batch is (ABI 1.12's
// add_normal_noise) gives the values the host gives here. Values are not
// clipped: clipping at 0 and 1 would bias the noise on dark and bright pixels.
uint64_t input_noise_stream(uint64_t seed, size_t epoch, size_t batch_number);
// values[i] += sigma * cae_normal_draw(stream, first_index + i) for the
// `count` values, on the host's cores.
void add_input_noise(float* values, size_t count, float sigma, uint64_t stream,
                     uint64_t first_index = 0);

}  // namespace cae
