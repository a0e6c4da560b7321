#pragma once
// Procedural images for a CIFAR-10-shaped stand-in data set. Each class is a
// family of appearances (a shape or a texture); every instance varies in
// position, size, rotation, colours, background gradient, contrast and noise,
// and may carry a small distractor blob, so a classifier has to learn the
// appearance rather than a colour or a position.

#include <array>
#include <cstddef>
#include <cstdint>
#include <random>

namespace cae::synthetic {

constexpr size_t kNumClasses = 10;

// Label -> class name, as written to batches.meta.txt.
const std::array<const char*, kNumClasses>& class_names();

// Paints one 32x32 RGB image of class `label` into `chw` (3072 bytes: R, G and
// B planes), drawing every random choice from `rng`.
void render_image(size_t label, std::mt19937_64& rng, uint8_t* chw);

}  // namespace cae::synthetic
