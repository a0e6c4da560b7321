// The autoencoder as data: what a user chooses with --model (a preset name
// or a JSON file) before the data fixes the input. The encoder is a list of
// convolutions, the last of which makes the latent; the decoder mirrors it
// unless given. nn/architecture.hpp binds a description to an input shape
// and derives every size and count from it.
#pragma once

#include <string>
#include <vector>

namespace cae::nn {

// One "same" convolution (stride 1, odd square kernel) with its ReLU, and
// the 2x2 max-pool (encoder) or 2x nearest upsample (decoder) after it.
struct ConvSpec {
  int out_channels = 0;
  int kernel = 3;
  bool relu = true;
  bool resize = false;  // encoder: max-pool after; decoder: upsample after

  bool operator==(const ConvSpec& other) const {
    return out_channels == other.out_channels && kernel == other.kernel && relu == other.relu &&
           resize == other.resize;
  }
};

// Limits a description is checked against (one clear line when outside).
inline constexpr int kMaxModelChannels = 4096;
inline constexpr int kMaxKernel = 15;
inline constexpr int kMaxModelLayers = 16;

struct ModelDescription {
  std::string name;  // "seed", "wide", "deep", or the JSON file's "name"
  std::vector<ConvSpec> encoder;  // the last one's (resized) output is the latent
  // Empty: mirrored from the encoder (mirrored_decoder). Its last layer must
  // give back the image's channels at the image's size.
  std::vector<ConvSpec> decoder;
};

// The encoder run backwards: a convolution at the latent's size keeping its
// channels, then for each encoder layer from the last an upsample where it
// pooled and a convolution back to the channels it took, the last without
// ReLU (the reconstruction). For the seed: 128->128, 128->256, 256->3.
std::vector<ConvSpec> mirrored_decoder(const std::vector<ConvSpec>& encoder, int image_channels);

// "seed" (the original network: 256 and 128 channels, 3x3, pooled twice),
// "wide" (a 512-channel 5x5 first layer), "deep" (a third 3x3 convolution at
// the latent's size). Throws std::invalid_argument naming the known ones.
ModelDescription model_preset(const std::string& name);
const std::vector<std::string>& model_preset_names();

// A preset name or a path to a JSON file (nn/model_json.hpp). Throws
// std::invalid_argument with one line naming the file and the field.
ModelDescription resolve_model(const std::string& name_or_path);

// One line per preset, "NAME: conv 3->256 ..." for `cae help`.
std::string model_preset_help();

}  // namespace cae::nn
