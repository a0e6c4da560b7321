#pragma once
// One image file (PNG, JPEG or BMP, decoded by stb_image) brought to the
// square CHW bytes cae trains on.
//
// Channels: grayscale (and grayscale + alpha) files give 1 channel, colour
// ones 3; an alpha channel is dropped (not blended). A set that holds any
// colour image is read as RGB, its grayscale images repeated into R, G and B.
//
// Size: with ResizeMode::kBox the whole image is scaled to side x side by a
// box filter -- each output pixel is the area-weighted mean of the source
// pixels its footprint covers (fractional at the edges), which averages when
// shrinking and repeats pixels when enlarging; a non-square image is stretched
// to the square. With kCrop, the centred side x side window is kept, and an
// image smaller than that in either direction is an error.

#include <cstdint>
#include <string>
#include <vector>

#include "data/data_source.hpp"

namespace cae {

// The most pixels an image file may declare (8192 x 8192): a larger one is
// refused from its header, before decoding.
constexpr int64_t kMaxImagePixels = int64_t(8192) * 8192;

struct ImageFileInfo {
  int width = 0;
  int height = 0;
  int channels = 0;  // 1 (grayscale) or 3 (colour), alpha not counted
};

// The file's size and channels from its header. DataError naming the file
// when it cannot be read, is not PNG, JPEG or BMP by its contents
// (image_format.hpp), declares more than kMaxImagePixels or cannot be decoded.
ImageFileInfo probe_image_file(const std::string& path);

// Decodes `path` into `chw` (channels * side * side bytes). `channels` is 1 or
// 3; a colour file into a 1-channel set is an error (probe first).
void load_image_file(const std::string& path, int channels, int side, ResizeMode mode,
                     uint8_t* chw);

// The box-filtered resampling itself, on interleaved 8-bit pixels: `in` is
// width x height x channels, the result side x side x channels.
std::vector<uint8_t> box_resize(const uint8_t* in, int width, int height, int channels, int side);

}  // namespace cae
