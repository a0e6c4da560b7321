// A model description (nn/model_description.hpp) bound to the images it
// reads: every layer's channels and spatial size, and every count derived
// from them. For the seed network on 3x32x32 images:
//
//   encoder.conv1  3 -> 256  ReLU   32x32  then max-pool -> 16x16
//   encoder.conv2 256 -> 128 ReLU   16x16  then max-pool ->  8x8  (latent 128x8x8)
//   decoder.conv1 128 -> 128 ReLU    8x8   then upsample -> 16x16
//   decoder.conv2 128 -> 256 ReLU   16x16  then upsample -> 32x32
//   decoder.conv3 256 -> 3          32x32  (reconstruction, MSE against the input)
//
// 751,875 parameters, 8,192-d latent.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "nn/model_description.hpp"

namespace cae::nn {

// What follows a convolution in the network.
enum class After { MaxPool, Upsample, Nothing };

struct ConvLayer {
  std::string name;  // checkpoint prefix, e.g. "encoder.conv1"
  int in_channels = 0;
  int out_channels = 0;
  int size = 0;  // spatial size of input and output (same padding)
  int kernel = 3;
  bool relu = true;
  After after = After::Nothing;

  int output_size() const;  // after the pool or upsample
  int64_t weight_count() const {
    return int64_t(out_channels) * in_channels * kernel * kernel;
  }
  int64_t parameter_count() const { return weight_count() + out_channels; }
  std::vector<int64_t> weight_shape() const { return {out_channels, in_channels, kernel, kernel}; }
  // "encoder.conv1 (3->256, 3x3 kernel, 32x32, then max-pool)"
  std::string describe() const;

  bool operator==(const ConvLayer& other) const;
};

class Network {
 public:
  // Throws std::invalid_argument, one line naming the layer, when the
  // description does not fit images of this shape (a pool of an odd size, a
  // decoder that does not end at the image's channels and size).
  Network(const ModelDescription& description, int image_channels, int image_side);

  // The seed network on CIFAR-sized images (3x32x32), what checkpoints
  // without a recorded model hold.
  static Network seed();

  const ModelDescription& description() const { return description_; }
  const std::vector<ConvLayer>& layers() const { return layers_; }
  int encoder_layers() const { return encoder_layers_; }  // layers [0, encoder_layers) encode

  int image_channels() const { return image_channels_; }
  int image_side() const { return image_side_; }
  int64_t image_floats() const { return int64_t(image_channels_) * image_side_ * image_side_; }
  // [batch, channels, side, side]: an input batch's tensor shape.
  std::vector<int64_t> image_dims(int64_t batch) const {
    return {batch, image_channels_, image_side_, image_side_};
  }
  // Throws std::runtime_error when images of this shape are not the
  // network's: "<what> holds 1x28x28 images; the model 'seed' reads 3x32x32".
  void require_images(int channels, int side, const std::string& what) const;

  // The latent: the last encoder layer's output, after its pool if it has one.
  int latent_channels() const;
  int latent_size() const;
  int64_t feature_dim() const {
    return int64_t(latent_channels()) * latent_size() * latent_size();
  }

  int64_t parameter_count() const;
  // Forward FLOPs per image (multiply-add = 2); backward = 2x forward.
  double forward_flops_per_image() const;

  // Same layers on the same images (the name is not compared).
  bool operator==(const Network& other) const;
  bool is_seed() const { return *this == seed(); }

 private:
  ModelDescription description_;
  int image_channels_ = 0;
  int image_side_ = 0;
  std::vector<ConvLayer> layers_;
  int encoder_layers_ = 0;
};

}  // namespace cae::nn
