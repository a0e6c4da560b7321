#include "nn/model_json.hpp"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "io/binary_file.hpp"
#include "io/io_error.hpp"
#include "io/strict_json.hpp"

namespace cae::nn {
namespace {

using Json = nlohmann::json;

class ModelReader {
 public:
  explicit ModelReader(const std::string& source) : source_(source) {}

  [[noreturn]] void fail(const std::string& field, const std::string& problem) const {
    // Field names come from the file: quoted printably and cut short, the
    // message stays one line.
    throw std::invalid_argument(source_ + ": '" + text_excerpt(field) + "' " + problem);
  }

  void only_keys(const Json& object, const std::string& field,
                 std::initializer_list<const char*> allowed) const {
    if (!object.is_object()) fail(field, "must be a JSON object, got " + json_excerpt(object));
    for (auto it = object.begin(); it != object.end(); ++it) {
      bool known = false;
      for (const char* key : allowed) known = known || it.key() == key;
      if (!known) {
        std::string list;
        for (const char* key : allowed) list += (list.empty() ? "" : ", ") + std::string(key);
        fail(field.empty() ? it.key() : field + "." + it.key(),
             "is not a model field (" + list + ")");
      }
    }
  }

  int whole(const Json& object, const std::string& field, const char* key, int fallback,
            int low, int high, bool odd) const {
    const std::string name = field + "." + key;
    const auto it = object.find(key);
    if (it == object.end()) {
      if (fallback < 0) fail(name, "is missing");
      return fallback;
    }
    const std::string range = std::string(odd ? "an odd" : "a") + " whole number from " +
                              std::to_string(low) + " to " + std::to_string(high);
    if (!it->is_number_integer()) fail(name, "must be " + range + ", got " + json_excerpt(*it));
    const int64_t value = it->get<int64_t>();
    if (value < low || value > high || (odd && value % 2 == 0)) {
      fail(name, "must be " + range + ", got " + json_excerpt(*it));
    }
    return int(value);
  }

  bool flag(const Json& object, const std::string& field, const char* key, bool fallback) const {
    const auto it = object.find(key);
    if (it == object.end()) return fallback;
    if (!it->is_boolean()) fail(field + "." + key, "must be true or false, got " + json_excerpt(*it));
    return it->get<bool>();
  }

  std::vector<ConvSpec> layers(const Json& list, const char* part) const {
    if (!list.is_array() || list.empty()) {
      fail(part, "must be a non-empty list of layers, got " + json_excerpt(list));
    }
    if (list.size() > size_t(kMaxModelLayers)) {
      fail(part, "has " + std::to_string(list.size()) + " layers, more than " +
                     std::to_string(kMaxModelLayers));
    }
    const bool encoder = std::string(part) == "encoder";
    const char* resize = encoder ? "pool" : "upsample";
    std::vector<ConvSpec> specs;
    for (size_t i = 0; i < list.size(); ++i) {
      const std::string field = std::string(part) + "[" + std::to_string(i) + "]";
      const Json& layer = list[i];
      only_keys(layer, field, {"channels", "kernel", "relu", resize});
      ConvSpec spec;
      spec.out_channels = whole(layer, field, "channels", -1, 1, kMaxModelChannels, false);
      spec.kernel = whole(layer, field, "kernel", 3, 1, kMaxKernel, true);
      const bool reconstruction = !encoder && i + 1 == list.size();
      spec.relu = flag(layer, field, "relu", !reconstruction);
      spec.resize = flag(layer, field, resize, false);
      specs.push_back(spec);
    }
    return specs;
  }

 private:
  const std::string& source_;
};

Json layers_json(const std::vector<ConvSpec>& specs, const char* resize) {
  Json list = Json::array();
  for (const ConvSpec& spec : specs) {
    list.push_back({{"channels", spec.out_channels},
                    {"kernel", spec.kernel},
                    {"relu", spec.relu},
                    {resize, spec.resize}});
  }
  return list;
}

}  // namespace

ModelDescription parse_model_json(const std::string& text, const std::string& source) {
  const ModelReader reader(source);
  Json root;
  try {
    root = parse_strict_json(text, source);  // a key named twice is refused too
  } catch (const IoError& error) {
    throw std::invalid_argument(error.what());
  }
  if (!root.is_object()) {
    throw std::invalid_argument(source + ": a model must be a JSON object, got " + json_excerpt(root));
  }
  reader.only_keys(root, "", {"name", "encoder", "decoder"});
  ModelDescription description;
  description.name = "custom";
  if (root.contains("name")) {
    const Json& name = root["name"];
    if (!name.is_string() || name.get<std::string>().empty() ||
        name.get<std::string>().find_first_of("\n\r\"") != std::string::npos) {
      reader.fail("name", "must be a non-empty one-line string, got " + json_excerpt(name));
    }
    description.name = name.get<std::string>();
  }
  if (!root.contains("encoder")) reader.fail("encoder", "is missing");
  description.encoder = reader.layers(root["encoder"], "encoder");
  if (root.contains("decoder")) description.decoder = reader.layers(root["decoder"], "decoder");
  return description;
}

ModelDescription read_model_file(const std::string& path) {
  std::error_code error;
  if (!std::filesystem::exists(path, error)) {
    throw std::invalid_argument("--model " + path + ": no such preset or readable file");
  }
  std::string text;
  try {
    // A FIFO or device is refused, never opened; a description is a few
    // hundred bytes, so a huge file is refused unread.
    text = read_binary_file(path, uint64_t(1) << 20, "a model description");
  } catch (const IoError& e) {
    throw std::invalid_argument(std::string("--model ") + e.what());
  }
  return parse_model_json(text, path);
}

std::string model_json(const ModelDescription& description, int image_channels) {
  const std::vector<ConvSpec> decoder = description.decoder.empty()
                                            ? mirrored_decoder(description.encoder, image_channels)
                                            : description.decoder;
  return Json{{"name", description.name},
              {"encoder", layers_json(description.encoder, "pool")},
              {"decoder", layers_json(decoder, "upsample")}}
      .dump();
}

}  // namespace cae::nn
