#include "io/safetensors.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>

#include "io/atomic_file.hpp"
#include "io/binary_file.hpp"
#include "io/finite.hpp"
#include "io/io_error.hpp"
#include "io/strict_json.hpp"

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "safetensors stores little-endian data; this code copies it as is");

namespace cae {

namespace {

using Json = nlohmann::json;
constexpr size_t kLengthBytes = 8;
constexpr char kMetadataKey[] = "__metadata__";

std::string shape_text(const std::vector<int64_t>& shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i) text += (i ? "," : "") + std::to_string(shape[i]);
  return text + "]";
}

// Element count of `shape`, or -1 when a dimension is negative or the product
// is too large to be the size of any real tensor.
int64_t element_count(const std::vector<int64_t>& shape) {
  constexpr int64_t kLimit = std::numeric_limits<int64_t>::max() / 8;
  int64_t count = 1;
  for (int64_t dim : shape) {
    if (dim < 0 || (dim > 0 && count > kLimit / dim)) return -1;
    count *= dim;
  }
  return count;
}

std::string build_header(const std::string& path, const std::vector<TensorView>& tensors,
                         const SafetensorsMetadata& metadata) {
  Json header = Json::object();
  std::set<std::string> names;
  uint64_t offset = 0;
  for (const TensorView& tensor : tensors) {
    const std::string where = "cannot write " + path + ": tensor '" + tensor.name + "'";
    if (tensor.name.empty()) throw IoError("cannot write " + path + ": a tensor has no name");
    if (tensor.name == kMetadataKey) throw IoError(where + ": the name is reserved");
    if (!names.insert(tensor.name).second) throw IoError(where + ": the name is used twice");
    const int64_t count = element_count(tensor.shape);
    if (count < 0 || static_cast<uint64_t>(count) != tensor.count) {
      throw IoError(where + " has shape " + shape_text(tensor.shape) + " but " +
                    std::to_string(tensor.count) + " values");
    }
    // What is written must load again: the reader refuses non-finite values.
    require_finite(tensor.data, tensor.count, where);
    const uint64_t end = offset + tensor.count * sizeof(float);
    header[tensor.name] = {
        {"dtype", "F32"}, {"shape", tensor.shape}, {"data_offsets", {offset, end}}};
    offset = end;
  }
  if (!metadata.empty()) header[kMetadataKey] = metadata;
  std::string text;
  try {
    text = header.dump();
  } catch (const Json::exception& error) {  // e.g. metadata that is not UTF-8
    throw IoError("cannot write " + path + ": " + json_error_text(error.what()));
  }
  // Padding keeps the data section 8-byte aligned for readers that map the file.
  text.append((kLengthBytes - text.size() % kLengthBytes) % kLengthBytes, ' ');
  return text;
}

std::string encode_length(uint64_t value) {
  std::string bytes(kLengthBytes, '\0');
  for (size_t i = 0; i < kLengthBytes; ++i) bytes[i] = static_cast<char>((value >> (8 * i)) & 0xff);
  return bytes;
}

uint64_t decode_length(const std::string& bytes) {
  uint64_t value = 0;
  for (size_t i = 0; i < kLengthBytes; ++i) {
    value |= static_cast<uint64_t>(static_cast<unsigned char>(bytes[i])) << (8 * i);
  }
  return value;
}

// Reads one tensor entry of the header; `where` prefixes every message.
struct TensorEntry {
  std::string name;
  std::vector<int64_t> shape;
  uint64_t begin = 0, end = 0;
};

TensorEntry parse_entry(const std::string& name, const Json& value, const std::string& where) {
  if (!value.is_object()) throw IoError(where + " is not a JSON object");
  const auto dtype = value.find("dtype");
  if (dtype == value.end() || !dtype->is_string()) throw IoError(where + " has no dtype");
  if (*dtype != "F32") {
    throw IoError(where + " has dtype " + dtype->get<std::string>() + " (only F32 is supported)");
  }
  TensorEntry entry;
  entry.name = name;
  const auto shape = value.find("shape");
  if (shape == value.end() || !shape->is_array()) throw IoError(where + " has no shape array");
  for (const Json& dim : *shape) {
    if (!dim.is_number_unsigned())
      throw IoError(where + " has a shape that is not all integers >= 0");
    entry.shape.push_back(dim.get<int64_t>());
  }
  const auto offsets = value.find("data_offsets");
  if (offsets == value.end() || !offsets->is_array() || offsets->size() != 2 ||
      !(*offsets)[0].is_number_unsigned() || !(*offsets)[1].is_number_unsigned()) {
    throw IoError(where + " has no data_offsets pair of integers >= 0");
  }
  entry.begin = (*offsets)[0].get<uint64_t>();
  entry.end = (*offsets)[1].get<uint64_t>();
  return entry;
}

SafetensorsMetadata parse_metadata(const Json& value, const std::string& file) {
  if (!value.is_object()) throw IoError(file + ": __metadata__ is not a JSON object");
  SafetensorsMetadata metadata;
  for (const auto& [key, text] : value.items()) {
    if (!text.is_string())
      throw IoError(file + ": __metadata__ value of '" + key + "' is not a string");
    metadata[key] = text.get<std::string>();
  }
  return metadata;
}

// Checks every entry against the data section and its neighbours.
void check_layout(std::vector<TensorEntry>& entries, uint64_t data_bytes, const std::string& file) {
  for (const TensorEntry& entry : entries) {
    const std::string where = file + ": tensor '" + entry.name + "'";
    if (entry.begin > entry.end || entry.end > data_bytes) {
      throw IoError(where + " has data_offsets [" + std::to_string(entry.begin) + "," +
                    std::to_string(entry.end) + "] outside the " + std::to_string(data_bytes) +
                    "-byte data section");
    }
    const int64_t count = element_count(entry.shape);
    if (count < 0 || static_cast<uint64_t>(count) * sizeof(float) != entry.end - entry.begin) {
      throw IoError(where + " has shape " + shape_text(entry.shape) +
                    " but its data_offsets span " + std::to_string(entry.end - entry.begin) +
                    " bytes");
    }
  }
  std::sort(entries.begin(), entries.end(),
            [](const TensorEntry& a, const TensorEntry& b) { return a.begin < b.begin; });
  for (size_t i = 1; i < entries.size(); ++i) {
    if (entries[i].begin < entries[i - 1].end) {
      throw IoError(file + ": tensors '" + entries[i - 1].name + "' and '" + entries[i].name +
                    "' overlap");
    }
  }
}

}  // namespace

const NamedTensor* SafetensorsFile::find(const std::string& name) const {
  for (const NamedTensor& tensor : tensors) {
    if (tensor.name == name) return &tensor;
  }
  return nullptr;
}

const NamedTensor& SafetensorsFile::at(const std::string& name) const {
  if (const NamedTensor* tensor = find(name)) return *tensor;
  throw IoError(path + ": has no tensor '" + name + "'");
}

void write_safetensors(const std::string& path, const std::vector<TensorView>& tensors,
                       const SafetensorsMetadata& metadata) {
  const std::string header = build_header(path, tensors, metadata);
  AtomicFile file(path);
  file.write(encode_length(header.size()));
  file.write(header);
  for (const TensorView& tensor : tensors) file.write(tensor.data, tensor.count * sizeof(float));
  file.commit();
}

void write_safetensors(const std::string& path, const std::vector<NamedTensor>& tensors,
                       const SafetensorsMetadata& metadata) {
  std::vector<TensorView> views;
  for (const NamedTensor& tensor : tensors) {
    views.push_back({tensor.name, tensor.shape, tensor.data.data(), tensor.data.size()});
  }
  write_safetensors(path, views, metadata);
}

SafetensorsFile read_safetensors(const std::string& path) {
  return parse_safetensors(read_binary_file(path), path);
}

SafetensorsFile parse_safetensors(const std::string& bytes, const std::string& path) {
  if (bytes.size() < kLengthBytes) {
    throw IoError(path + ": truncated: " + std::to_string(bytes.size()) +
                  " bytes, too short for the 8-byte header length");
  }
  const uint64_t header_bytes = decode_length(bytes);
  if (header_bytes > bytes.size() - kLengthBytes) {
    throw IoError(path + ": header length " + std::to_string(header_bytes) +
                  " goes beyond the end of the " + std::to_string(bytes.size()) + "-byte file");
  }
  // A tensor or metadata key named twice is refused (strict_json.hpp).
  const Json header = parse_strict_json(
      std::string_view(bytes.data() + kLengthBytes, header_bytes), path, "JSON header");
  if (!header.is_object()) throw IoError(path + ": the JSON header is not an object");

  SafetensorsFile result;
  result.path = path;
  std::vector<TensorEntry> entries;
  for (const auto& [name, value] : header.items()) {
    if (name == kMetadataKey) {
      result.metadata = parse_metadata(value, path);
    } else {
      entries.push_back(parse_entry(name, value, path + ": tensor '" + name + "'"));
    }
  }
  const size_t data_start = kLengthBytes + header_bytes;
  check_layout(entries, bytes.size() - data_start, path);

  for (const TensorEntry& entry : entries) {
    NamedTensor tensor{entry.name, entry.shape, {}};
    tensor.data.resize((entry.end - entry.begin) / sizeof(float));
    if (!tensor.data.empty()) {
      std::memcpy(tensor.data.data(), bytes.data() + data_start + entry.begin,
                  entry.end - entry.begin);
    }
    require_finite(tensor.data.data(), tensor.data.size(), path + ": tensor '" + entry.name + "'");
    result.tensors.push_back(std::move(tensor));
  }
  return result;
}

}  // namespace cae
