// The seed's convolutional autoencoder, as data: five 3x3 "same" convolutions
// with 2x2 max-pools in the encoder and 2x nearest upsamples in the decoder.
//
//   encoder.conv1  3 -> 256  ReLU   32x32  then max-pool -> 16x16
//   encoder.conv2 256 -> 128 ReLU   16x16  then max-pool ->  8x8  (latent 128x8x8)
//   decoder.conv1 128 -> 128 ReLU    8x8   then upsample -> 16x16
//   decoder.conv2 128 -> 256 ReLU   16x16  then upsample -> 32x32
//   decoder.conv3 256 -> 3          32x32  (reconstruction, MSE against the input)
#pragma once

#include <array>
#include <cstdint>
#include <string>

namespace cae::nn {

constexpr int kImageChannels = 3;
constexpr int kImageSize = 32;
constexpr int kImageFloats = kImageChannels * kImageSize * kImageSize;  // 3072
constexpr int kKernel = 3;
constexpr int kLatentChannels = 128;
constexpr int kLatentSize = 8;
constexpr int kFeatureDim = kLatentChannels * kLatentSize * kLatentSize;  // 8192

// What follows a convolution in the network.
enum class After { MaxPool, Upsample, Nothing };

struct ConvLayer {
  const char* name;  // checkpoint prefix, e.g. "encoder.conv1"
  int in_channels;
  int out_channels;
  int size;  // spatial size of input and output (same padding)
  bool relu;
  After after;

  int64_t weight_count() const { return int64_t(out_channels) * in_channels * kKernel * kKernel; }
  int64_t parameter_count() const { return weight_count() + out_channels; }
};

constexpr std::array<ConvLayer, 5> kLayers = {{
    {"encoder.conv1", 3, 256, 32, true, After::MaxPool},
    {"encoder.conv2", 256, 128, 16, true, After::MaxPool},
    {"decoder.conv1", 128, 128, 8, true, After::Upsample},
    {"decoder.conv2", 128, 256, 16, true, After::Upsample},
    {"decoder.conv3", 256, 3, 32, false, After::Nothing},
}};
constexpr int kEncoderLayers = 2;  // layers 0..1 produce the latent

// 751,875 for the seed's network.
int64_t total_parameter_count();

// Forward FLOPs per image (multiply-add = 2), backward = 2x forward.
double forward_flops_per_image();

}  // namespace cae::nn
