#include "nn/model_description.hpp"

#include <stdexcept>

#include "nn/model_json.hpp"

namespace cae::nn {
namespace {

ConvSpec conv(int channels, int kernel, bool pool) { return {channels, kernel, true, pool}; }

std::vector<ModelDescription> make_presets() {
  return {
      {"seed", {conv(256, 3, true), conv(128, 3, true)}, {}},
      {"wide", {conv(512, 5, true), conv(128, 3, true)}, {}},
      {"deep", {conv(256, 3, true), conv(128, 3, true), conv(128, 3, false)}, {}},
  };
}

const std::vector<ModelDescription>& presets() {
  static const std::vector<ModelDescription> all = make_presets();
  return all;
}

}  // namespace

std::vector<ConvSpec> mirrored_decoder(const std::vector<ConvSpec>& encoder, int image_channels) {
  std::vector<ConvSpec> decoder;
  if (encoder.empty()) return decoder;
  // At the latent's size: keep its channels, undo the last encoder layer's pool.
  decoder.push_back({encoder.back().out_channels, encoder.back().kernel, true, encoder.back().resize});
  for (size_t i = encoder.size() - 1; i-- > 0;) {
    // Back to encoder layer i's output channels, undoing its pool.
    decoder.push_back({encoder[i].out_channels, encoder[i + 1].kernel, true, encoder[i].resize});
  }
  decoder.push_back({image_channels, encoder.front().kernel, false, false});
  return decoder;
}

ModelDescription model_preset(const std::string& name) {
  std::string known;
  for (const ModelDescription& preset : presets()) {
    if (preset.name == name) return preset;
    known += (known.empty() ? "" : ", ") + preset.name;
  }
  throw std::invalid_argument("unknown model preset '" + name + "' (" + known +
                              ", or a JSON file)");
}

const std::vector<std::string>& model_preset_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> all;
    for (const ModelDescription& preset : presets()) all.push_back(preset.name);
    return all;
  }();
  return names;
}

ModelDescription resolve_model(const std::string& name_or_path) {
  for (const ModelDescription& preset : presets()) {
    if (preset.name == name_or_path) return preset;
  }
  const bool looks_like_file = name_or_path.find('/') != std::string::npos ||
                               name_or_path.find('.') != std::string::npos;
  if (!looks_like_file) return model_preset(name_or_path);  // throws, naming the presets
  return read_model_file(name_or_path);
}

std::string model_preset_help() {
  std::string text;
  for (const ModelDescription& preset : presets()) {
    text += "\n  " + preset.name + ": encoder";
    for (const ConvSpec& spec : preset.encoder) {
      text += " " + std::to_string(spec.out_channels) + "@" + std::to_string(spec.kernel) + "x" +
              std::to_string(spec.kernel) + (spec.resize ? "+pool" : "");
    }
    text += ", mirrored decoder";
  }
  return text;
}

}  // namespace cae::nn
