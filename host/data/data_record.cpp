#include "data/data_record.hpp"

#include <filesystem>
#include <stdexcept>

#include "data/data_error.hpp"
#include "io/sha256.hpp"
#include "io/strict_json.hpp"

namespace cae {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

constexpr int64_t kMaxCount = int64_t(1) << 40;
constexpr int kMaxSide = 1 << 16;

// The name a file has inside the data's location, so that the identity
// survives moving the set; a file outside it (never, for today's sources)
// keeps its own name.
std::string name_inside(const std::string& file, const std::string& location) {
  const fs::path relative = fs::path(file).lexically_relative(location);
  const std::string text = relative.generic_string();
  if (text.empty() || text == "." || text.rfind("..", 0) == 0) {
    return fs::path(file).filename().generic_string();
  }
  return text;
}

void add_u64(Sha256& hash, uint64_t value) {
  uint8_t bytes[8];
  for (int i = 0; i < 8; ++i) bytes[i] = uint8_t(value >> (8 * i));
  hash.update(bytes, sizeof bytes);
}

[[noreturn]] void bad(const std::string& field, const std::string& problem) {
  throw std::invalid_argument("'" + field + "' " + problem);
}

const Json& member(const Json& doc, const char* key) {
  const auto it = doc.find(key);
  if (it == doc.end()) bad(key, "is missing");
  return *it;
}

std::string text_of(const Json& doc, const char* key) {
  const Json& value = member(doc, key);
  if (!value.is_string()) bad(key, "is " + json_excerpt(value) + ", not a string");
  return value.get<std::string>();
}

bool flag_of(const Json& doc, const char* key) {
  const Json& value = member(doc, key);
  if (!value.is_boolean()) bad(key, "is " + json_excerpt(value) + ", not true or false");
  return value.get<bool>();
}

// Whole numbers only: a float is never converted (out of range it would be
// undefined behaviour).
int64_t count_of(const Json& doc, const char* key, int64_t low, int64_t high) {
  const Json& value = member(doc, key);
  if (!value.is_number_integer()) bad(key, "is " + json_excerpt(value) + ", not a whole number");
  if (value.is_number_unsigned() && value.get<uint64_t>() > uint64_t(high)) {
    bad(key, "is " + json_excerpt(value) + ", above " + std::to_string(high));
  }
  const int64_t number = value.get<int64_t>();
  if (number < low || number > high) {
    bad(key, "is " + json_excerpt(value) + ", not in " + std::to_string(low) + ".." + std::to_string(high));
  }
  return number;
}

void require_one_of(const std::string& field, const std::string& value,
                    std::initializer_list<const char*> allowed) {
  for (const char* name : allowed) {
    if (value == name) return;
  }
  bad(field, "is '" + value + "', not one cae writes");
}

std::string count_text(int64_t n) { return std::to_string(n); }

}  // namespace

std::string DataRecord::shape_and_format() const {
  return std::to_string(channels) + "x" + std::to_string(side) + "x" + std::to_string(side) + " " +
         format;
}

DataRecord record_data(const DataSplits& data, const DataOptions& options, const std::string& path) {
  DataRecord r;
  r.format = data_format_name(data.format);
  r.format_given = options.format != DataFormat::kAuto;
  r.path = path;
  r.channels = data.train.channels;
  r.side = data.train.side;
  if (data.format == DataFormat::kFolder) r.resize = resize_mode_name(options.resize);
  if (data.format == DataFormat::kCifar100) r.labels = options.coarse_labels ? "coarse" : "fine";
  if (data.labelled) r.class_names = data.class_names;
  r.train_images = int64_t(data.train.size());
  r.test_images = int64_t(data.test.size());
  r.unlabelled_images = int64_t(data.unlabelled.size());
  r.fraction_split = data.fraction_split;
  if (r.fraction_split) {
    r.test_fraction = options.test_fraction;
    r.split_seed = options.split_seed;
  }
  if (data.files.empty()) return r;  // the synthetic set: made, not read
  Sha256 hash;
  for (const std::string& file : data.files) {
    std::error_code error;
    const uintmax_t size = fs::file_size(file, error);
    if (error) throw DataError("cannot read the size of " + file + ": " + error.message());
    const std::string name = name_inside(file, data.location);
    add_u64(hash, name.size());
    hash.update(name.data(), name.size());
    add_u64(hash, uint64_t(size));
    r.file_bytes += uint64_t(size);
  }
  r.files = int64_t(data.files.size());
  r.files_sha256 = hash.hex();
  return r;
}

nlohmann::ordered_json data_record_json(const DataRecord& r) {
  nlohmann::ordered_json doc = {{"format", r.format},
                                {"format_given", r.format_given},
                                {"path", r.path},
                                {"channels", r.channels},
                                {"side", r.side},
                                {"resize", r.resize},
                                {"labels", r.labels},
                                {"class_names", r.class_names},
                                {"train_images", r.train_images},
                                {"test_images", r.test_images},
                                {"unlabelled_images", r.unlabelled_images},
                                {"autoencoder_split", r.autoencoder_split},
                                {"fraction_split", r.fraction_split}};
  if (r.fraction_split) {
    doc["test_fraction"] = r.test_fraction;
    doc["split_seed"] = r.split_seed;
  }
  if (r.autoencoder_held_out > 0) {
    doc["autoencoder_held_out"] = r.autoencoder_held_out;
    doc["autoencoder_held_out_seed"] = r.autoencoder_held_out_seed;
  }
  doc["files"] = r.files;
  doc["file_bytes"] = r.file_bytes;
  doc["files_sha256"] = r.files_sha256;
  return doc;
}

DataRecord data_record_from_json(const Json& doc) {
  if (!doc.is_object()) throw std::invalid_argument("is not a JSON object");
  DataRecord r;
  r.format = text_of(doc, "format");
  require_one_of("format", r.format, {"cifar10", "cifar100", "stl10", "folder", "npy", "synthetic"});
  r.format_given = flag_of(doc, "format_given");
  r.path = text_of(doc, "path");
  r.channels = int(count_of(doc, "channels", 1, 4));
  r.side = int(count_of(doc, "side", 1, kMaxSide));
  r.resize = text_of(doc, "resize");
  require_one_of("resize", r.resize, {"", "box", "crop"});
  r.labels = text_of(doc, "labels");
  require_one_of("labels", r.labels, {"", "fine", "coarse"});
  const Json& names = member(doc, "class_names");
  if (!names.is_array()) bad("class_names", "is not a JSON array");
  for (const Json& name : names) {
    if (!name.is_string()) bad("class_names", "holds " + json_excerpt(name) + ", not a string");
    r.class_names.push_back(name.get<std::string>());
  }
  r.train_images = count_of(doc, "train_images", 0, kMaxCount);
  r.test_images = count_of(doc, "test_images", 0, kMaxCount);
  r.unlabelled_images = count_of(doc, "unlabelled_images", 0, kMaxCount);
  r.autoencoder_split = text_of(doc, "autoencoder_split");
  require_one_of("autoencoder_split", r.autoencoder_split, {"", "train", "unlabelled"});
  if (doc.contains("autoencoder_held_out")) {
    if (r.autoencoder_split != "train") {
      bad("autoencoder_held_out", "is recorded for the '" + r.autoencoder_split +
                                      "' split; rows are held out of the train split only");
    }
    r.autoencoder_held_out = count_of(doc, "autoencoder_held_out", 1, kMaxCount);
    const Json& seed = member(doc, "autoencoder_held_out_seed");
    if (!seed.is_number_unsigned()) {
      bad("autoencoder_held_out_seed", "is " + json_excerpt(seed) + ", not a whole number");
    }
    r.autoencoder_held_out_seed = seed.get<uint64_t>();
  }
  r.fraction_split = flag_of(doc, "fraction_split");
  if (r.fraction_split) {
    const Json& fraction = member(doc, "test_fraction");
    if (!fraction.is_number() || !(fraction.get<double>() > 0.0 && fraction.get<double>() < 1.0)) {
      bad("test_fraction", "is " + json_excerpt(fraction) + ", not a number between 0 and 1");
    }
    r.test_fraction = fraction.get<double>();
    const Json& seed = member(doc, "split_seed");
    if (!seed.is_number_unsigned()) bad("split_seed", "is " + json_excerpt(seed) + ", not a whole number");
    r.split_seed = seed.get<uint64_t>();
  }
  r.files = count_of(doc, "files", 0, kMaxCount);
  const Json& bytes = member(doc, "file_bytes");
  if (!bytes.is_number_unsigned()) bad("file_bytes", "is " + json_excerpt(bytes) + ", not a whole number");
  r.file_bytes = bytes.get<uint64_t>();
  r.files_sha256 = text_of(doc, "files_sha256");
  const bool hex = r.files_sha256.find_first_not_of("0123456789abcdef") == std::string::npos;
  if (!(r.files_sha256.empty() || (r.files_sha256.size() == 64 && hex))) {
    bad("files_sha256", "is '" + r.files_sha256 + "', not 64 hex digits");
  }
  return r;
}

std::vector<std::pair<std::string, std::string>> data_record_rows(const DataRecord& r) {
  std::vector<std::pair<std::string, std::string>> rows;
  rows.emplace_back("data", r.path.empty() ? "(generated in memory)" : r.path);
  rows.emplace_back("data format", r.format + (r.format_given ? " (--data-format)" : " (recognised)"));
  rows.emplace_back("image shape", std::to_string(r.channels) + "x" + std::to_string(r.side) + "x" +
                                       std::to_string(r.side) +
                                       (r.resize.empty() ? "" : ", --resize " + r.resize));
  if (!r.labels.empty()) rows.emplace_back("labels", r.labels);
  std::string names;
  for (const std::string& name : r.class_names) names += (names.empty() ? "" : ", ") + name;
  rows.emplace_back("classes", r.class_names.empty()
                                   ? "none (unlabelled)"
                                   : count_text(int64_t(r.class_names.size())) + ": " + names);
  rows.emplace_back("train images", count_text(r.train_images));
  rows.emplace_back("test images", count_text(r.test_images));
  if (r.unlabelled_images > 0) rows.emplace_back("unlabelled images", count_text(r.unlabelled_images));
  if (!r.autoencoder_split.empty()) {
    std::string split = r.autoencoder_split + " split";
    if (r.autoencoder_held_out > 0) {
      split += " less its " + count_text(r.autoencoder_held_out) + " validation rows (seed " +
               std::to_string(r.autoencoder_held_out_seed) + ")";
    }
    rows.emplace_back("autoencoder trained on", split);
  }
  if (r.fraction_split) {
    rows.emplace_back("split", "--test-fraction " + nlohmann::json(r.test_fraction).dump() +
                                   ", --split-seed " + std::to_string(r.split_seed));
  }
  if (!r.files_sha256.empty()) {
    rows.emplace_back("data files", count_text(r.files) + " files, " + std::to_string(r.file_bytes) +
                                        " bytes; names and sizes sha256 " + r.files_sha256);
  }
  return rows;
}

std::string data_record_summary(const DataRecord& r) {
  std::string text = r.shape_and_format() + " images from " +
                     (r.path.empty() ? std::string("memory") : r.path);
  if (!r.files_sha256.empty()) text += " (files sha256 " + r.files_sha256.substr(0, 12) + ")";
  return text;
}

}  // namespace cae
