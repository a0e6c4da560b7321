#include "nn/model_metadata.hpp"

#include <stdexcept>

#include "nn/model_json.hpp"

namespace cae::nn {
namespace {

constexpr char kSeedArchitecture[] = "cae-seed-autoencoder";
constexpr char kDescribedArchitecture[] = "cae-autoencoder";
constexpr int kMaxImageSide = 65536;

int image_number(const SafetensorsMetadata& metadata, const std::string& path, const char* key,
                 int high) {
  const auto it = metadata.find(key);
  const std::string problem = std::string("checkpoint metadata '") + key + "' ";
  if (it == metadata.end()) throw std::runtime_error(path + ": " + problem + "is missing");
  const std::string& text = it->second;
  bool digits = !text.empty() && text.size() <= 6;
  for (char c : text) digits = digits && c >= '0' && c <= '9';
  const long value = digits ? std::stol(text) : 0;
  if (!digits || value < 1 || value > high) {
    throw std::runtime_error(path + ": " + problem + "is '" + text + "', not a whole number from 1 to " +
                             std::to_string(high));
  }
  return int(value);
}

}  // namespace

void add_model_metadata(const Network& network, SafetensorsMetadata& metadata) {
  if (network.is_seed()) {
    metadata["architecture"] = kSeedArchitecture;
    return;
  }
  metadata["architecture"] = kDescribedArchitecture;
  metadata["model"] = model_json(network.description(), network.image_channels());
  metadata["image_channels"] = std::to_string(network.image_channels());
  metadata["image_side"] = std::to_string(network.image_side());
}

Network parse_model_metadata(const SafetensorsMetadata& metadata, const std::string& path) {
  // A network of another program is not read as if it were ours (files
  // without the field hold the seed network's weights only).
  const auto architecture = metadata.find("architecture");
  const bool described = architecture != metadata.end() && architecture->second == kDescribedArchitecture;
  if (architecture != metadata.end() && !described && architecture->second != kSeedArchitecture) {
    throw std::runtime_error(path + ": checkpoint metadata 'architecture' is '" + architecture->second +
                             "', not " + kSeedArchitecture + " or " + kDescribedArchitecture);
  }
  const auto model = metadata.find("model");
  if (described && model == metadata.end()) {
    throw std::runtime_error(path + ": checkpoint metadata 'model' is missing (the architecture is " +
                             kDescribedArchitecture + ")");
  }
  if (model == metadata.end()) return Network::seed();
  ModelDescription description;
  try {
    description = parse_model_json(model->second, path + ": checkpoint metadata 'model'");
  } catch (const std::invalid_argument& error) {
    throw std::runtime_error(error.what());  // names the file already
  }
  const int channels = image_number(metadata, path, "image_channels", kMaxModelChannels);
  const int side = image_number(metadata, path, "image_side", kMaxImageSide);
  try {
    return Network(description, channels, side);
  } catch (const std::invalid_argument& error) {
    // The description is valid on its own but not for the recorded images.
    throw std::runtime_error(path + ": checkpoint metadata 'model' does not fit its " +
                             std::to_string(channels) + "x" + std::to_string(side) + "x" +
                             std::to_string(side) + " images: " + error.what());
  }
}

}  // namespace cae::nn
