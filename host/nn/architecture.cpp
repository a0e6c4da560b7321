#include "architecture.hpp"

#include <stdexcept>

namespace cae::nn {
namespace {

std::string layer_name(const char* part, size_t index) {
  return std::string(part) + ".conv" + std::to_string(index + 1);
}

}  // namespace

int ConvLayer::output_size() const {
  switch (after) {
    case After::MaxPool:
      return size / 2;
    case After::Upsample:
      return size * 2;
    case After::Nothing:
      return size;
  }
  throw std::logic_error("unknown layer resize");
}

std::string ConvLayer::describe() const {
  std::string text = name + " (" + std::to_string(in_channels) + "->" +
                     std::to_string(out_channels) + ", " + std::to_string(kernel) + "x" +
                     std::to_string(kernel) + " kernel, " + std::to_string(size) + "x" +
                     std::to_string(size);
  if (after == After::MaxPool) text += ", then max-pool";
  if (after == After::Upsample) text += ", then upsample";
  return text + ")";
}

bool ConvLayer::operator==(const ConvLayer& other) const {
  return name == other.name && in_channels == other.in_channels &&
         out_channels == other.out_channels && size == other.size && kernel == other.kernel &&
         relu == other.relu && after == other.after;
}

Network::Network(const ModelDescription& description, int image_channels, int image_side)
    : description_(description), image_channels_(image_channels), image_side_(image_side) {
  if (image_channels < 1 || image_side < 1) {
    throw std::invalid_argument("model '" + description.name + "': images of " +
                                std::to_string(image_channels) + " channels and side " +
                                std::to_string(image_side) + " cannot be encoded");
  }
  if (description.encoder.empty()) {
    throw std::invalid_argument("model '" + description.name + "' has no encoder layer");
  }
  const std::string images = std::to_string(image_channels) + "x" + std::to_string(image_side) +
                             "x" + std::to_string(image_side) + " images";
  int channels = image_channels;
  int size = image_side;
  auto add = [&](const char* part, size_t index, const ConvSpec& spec, After resize) {
    ConvLayer layer;
    layer.name = layer_name(part, index);
    layer.in_channels = channels;
    layer.out_channels = spec.out_channels;
    layer.size = size;
    layer.kernel = spec.kernel;
    layer.relu = spec.relu;
    layer.after = spec.resize ? resize : After::Nothing;
    if (layer.after == After::MaxPool && (size < 2 || size % 2 != 0)) {
      throw std::invalid_argument("model '" + description.name + "': " + layer.name +
                                  " max-pools a " + std::to_string(size) + "x" +
                                  std::to_string(size) +
                                  " map, and a 2x2 pool needs an even size (on " + images + ")");
    }
    channels = layer.out_channels;
    size = layer.output_size();
    layers_.push_back(layer);
  };
  for (size_t i = 0; i < description.encoder.size(); ++i) {
    add("encoder", i, description.encoder[i], After::MaxPool);
  }
  encoder_layers_ = int(layers_.size());
  const std::vector<ConvSpec> decoder = description.decoder.empty()
                                            ? mirrored_decoder(description.encoder, image_channels)
                                            : description.decoder;
  for (size_t i = 0; i < decoder.size(); ++i) add("decoder", i, decoder[i], After::Upsample);
  const ConvLayer& last = layers_.back();
  if (int(layers_.size()) == encoder_layers_) {
    throw std::invalid_argument("model '" + description.name + "' has no decoder layer");
  }
  if (last.after != After::Nothing) {
    throw std::invalid_argument("model '" + description.name + "': " + last.name +
                                " is the reconstruction and cannot upsample after it");
  }
  if (last.out_channels != image_channels || last.size != image_side) {
    throw std::invalid_argument(
        "model '" + description.name + "': the decoder ends with " +
        std::to_string(last.out_channels) + "x" + std::to_string(last.size) + "x" +
        std::to_string(last.size) + " maps, but the reconstruction of " + images +
        " must be " + std::to_string(image_channels) + "x" + std::to_string(image_side) + "x" +
        std::to_string(image_side));
  }
}

void Network::require_images(int channels, int side, const std::string& what) const {
  if (channels == image_channels_ && side == image_side_) return;
  auto shape = [](int c, int s) {
    return std::to_string(c) + "x" + std::to_string(s) + "x" + std::to_string(s);
  };
  throw std::runtime_error(what + " holds " + shape(channels, side) + " images; the model '" +
                           description_.name + "' reads " + shape(image_channels_, image_side_));
}

Network Network::seed() { return Network(model_preset("seed"), 3, 32); }

int Network::latent_channels() const { return layers_[size_t(encoder_layers_ - 1)].out_channels; }

int Network::latent_size() const { return layers_[size_t(encoder_layers_ - 1)].output_size(); }

int64_t Network::parameter_count() const {
  int64_t total = 0;
  for (const auto& layer : layers_) total += layer.parameter_count();
  return total;
}

double Network::forward_flops_per_image() const {
  double flops = 0;
  for (const auto& layer : layers_) {
    flops += 2.0 * double(layer.weight_count()) * layer.size * layer.size;
  }
  return flops;
}

bool Network::operator==(const Network& other) const {
  return image_channels_ == other.image_channels_ && image_side_ == other.image_side_ &&
         encoder_layers_ == other.encoder_layers_ && layers_ == other.layers_;
}

}  // namespace cae::nn
