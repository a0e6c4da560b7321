// The record of the data a product was made from: what the sources report,
// the identity of the files, and the JSON form checkpoints and features.json
// carry, read back strictly.
#include <doctest/doctest.h>

#include <fstream>

#include "data/data_record.hpp"
#include "io/scratch_dir.hpp"
#include "official_layouts.hpp"
#include "patterned_images.hpp"

using namespace cae;
using namespace cae::test;
namespace fs = std::filesystem;

namespace {

DataRecord folder_record(const fs::path& root, const DataOptions& options) {
  return record_data(load_data(root.string(), options), options, root.string());
}

DataRecord stl10_record() {
  DataRecord r;
  r.format = "stl10";
  r.path = "stl/";
  r.channels = 3;
  r.side = 96;
  r.class_names = {"airplane", "bird"};
  r.train_images = 5000;
  r.test_images = 8000;
  r.unlabelled_images = 100000;
  r.autoencoder_split = "unlabelled";
  r.files = 7;
  r.file_bytes = 2970000123;
  r.files_sha256 = std::string(64, 'f');
  return r;
}

std::string refusal(nlohmann::json doc) {
  try {
    data_record_from_json(doc);
  } catch (const std::invalid_argument& error) {
    return error.what();
  }
  return "(accepted)";
}

}  // namespace

TEST_CASE("a folder split by fraction records its format, shape, resize, classes, counts and split") {
  ScratchDir dir;
  write_png_images(patterned_images({0, 0, 0, 0, 0, 1, 1, 1, 1, 1}, 3, 8), {"cats", "dogs"},
                   dir.path());
  DataOptions options;
  options.test_fraction = 0.4;
  options.split_seed = 9;
  options.resize = ResizeMode::kCrop;
  const DataRecord r = folder_record(dir.path(), options);
  CHECK(r.format == "folder");
  CHECK_FALSE(r.format_given);
  CHECK(r.path == dir.path());
  CHECK(r.channels == 3);
  CHECK(r.side == 8);
  CHECK(r.resize == "crop");
  CHECK(r.labels.empty());
  CHECK(r.class_names == std::vector<std::string>{"cats", "dogs"});
  CHECK(r.train_images == 6);
  CHECK(r.test_images == 4);
  CHECK(r.fraction_split);
  CHECK(r.test_fraction == 0.4);
  CHECK(r.split_seed == 9);
  CHECK(r.files == 10);
  CHECK(r.files_sha256.size() == 64);
  CHECK(r.shape_and_format() == "3x8x8 folder");
}

TEST_CASE("the files' identity survives a move, and changes with a file's length or name") {
  ScratchDir dir;
  const fs::path a = fs::path(dir.path()) / "a", b = fs::path(dir.path()) / "b";
  write_png_images(patterned_images({0, 1, 0, 1}, 3, 8), {"x", "y"}, a / "train");
  write_png_images(patterned_images({0, 1}, 3, 8), {"x", "y"}, a / "test");
  DataOptions options;
  options.format = DataFormat::kFolder;
  const DataRecord first = folder_record(a, options);
  CHECK(first.format_given);
  CHECK_FALSE(first.fraction_split);  // train/ and test/ given
  fs::rename(a, b);
  const DataRecord moved = folder_record(b, options);
  CHECK(moved.files_sha256 == first.files_sha256);
  CHECK(moved.path != first.path);
  const fs::path file = b / "train" / "x" / "image0.png";
  REQUIRE(fs::exists(file));
  std::ofstream(file, std::ios::app) << "more bytes";  // stb ignores what follows the PNG
  const DataRecord longer = folder_record(b, options);
  CHECK(longer.files_sha256 != first.files_sha256);
  CHECK(longer.file_bytes == first.file_bytes + 10);
  fs::rename(file, b / "train" / "x" / "image9.png");
  CHECK(folder_record(b, options).files_sha256 != longer.files_sha256);
}

TEST_CASE("CIFAR-100 records its label set and class names; the synthetic set has no files") {
  ScratchDir dir;
  const fs::path root = dir.path();
  write_file(root / "train.bin", cifar100_records(patterned_images({0, 1, 2, 3}, 3, 32), {0, 1, 2, 3}));
  write_file(root / "test.bin", cifar100_records(patterned_images({1, 2}, 3, 32), {1, 2}));
  std::vector<std::string> fine(100, "fine"), coarse;
  for (int k = 0; k < 20; ++k) coarse.push_back("coarse" + std::to_string(k));
  write_file(root / "fine_label_names.txt", lines(fine));
  write_file(root / "coarse_label_names.txt", lines(coarse));
  DataOptions options;
  options.coarse_labels = true;
  const DataSplits data = load_data(dir.path(), options);
  const DataRecord r = record_data(data, options, dir.path());
  CHECK(r.format == "cifar100");
  CHECK(r.labels == "coarse");
  CHECK(r.class_names.size() == 20);
  CHECK(r.class_names == data.class_names);
  CHECK_FALSE(r.fraction_split);
  CHECK(r.files == 3);

  DataOptions synthetic;
  synthetic.format = DataFormat::kSynthetic;
  synthetic.max_train = 10;
  synthetic.max_test = 5;
  const DataRecord s = record_data(load_data("", synthetic), synthetic, "");
  CHECK(s.format == "synthetic");
  CHECK(s.files_sha256.empty());
  CHECK(s.train_images == 10);
}

TEST_CASE("the record round-trips through its JSON, and anything else is refused naming the field") {
  DataRecord r = stl10_record();
  r.fraction_split = true;
  r.test_fraction = 0.2;
  r.split_seed = 18446744073709551615ull;
  const nlohmann::json doc = nlohmann::json::parse(data_record_json(r).dump());
  const DataRecord back = data_record_from_json(doc);
  CHECK(back.format == r.format);
  CHECK(back.path == r.path);
  CHECK(back.side == 96);
  CHECK(back.class_names == r.class_names);
  CHECK(back.unlabelled_images == 100000);
  CHECK(back.autoencoder_split == "unlabelled");
  CHECK(back.fraction_split);
  CHECK(back.test_fraction == 0.2);
  CHECK(back.split_seed == r.split_seed);
  CHECK(back.file_bytes == r.file_bytes);
  CHECK(back.files_sha256 == r.files_sha256);
  CHECK(data_record_json(back).dump() == data_record_json(r).dump());

  const auto with = [&doc](const char* key, nlohmann::json value) {
    nlohmann::json changed = doc;
    changed[key] = std::move(value);
    return changed;
  };
  nlohmann::json missing = doc;
  missing.erase("side");
  CHECK(refusal(missing) == "'side' is missing");
  CHECK(refusal(with("side", 0)) == "'side' is 0, not in 1..65536");
  CHECK(refusal(with("side", 32.5)) == "'side' is 32.5, not a whole number");
  CHECK(refusal(with("train_images", -1)) == "'train_images' is -1, not in 0..1099511627776");
  CHECK(refusal(with("format", "mnist")) == "'format' is 'mnist', not one cae writes");
  CHECK(refusal(with("test_fraction", 1.5)) == "'test_fraction' is 1.5, not a number between 0 and 1");
  CHECK(refusal(with("class_names", nlohmann::json::array({1}))) ==
        "'class_names' holds 1, not a string");
  CHECK(refusal(with("files_sha256", "xyz")) == "'files_sha256' is 'xyz', not 64 hex digits");
  CHECK(refusal(with("format_given", "yes")) == "'format_given' is \"yes\", not true or false");
}

TEST_CASE("rows held out of the autoencoder's images round-trip, for the train split only") {
  DataRecord r = stl10_record();
  r.autoencoder_split = "train";
  r.autoencoder_held_out = 500;
  r.autoencoder_held_out_seed = 7;
  const nlohmann::json doc = nlohmann::json::parse(data_record_json(r).dump());
  const DataRecord back = data_record_from_json(doc);
  CHECK(back.autoencoder_held_out == 500);
  CHECK(back.autoencoder_held_out_seed == 7);
  bool named = false;
  for (const auto& [key, value] : data_record_rows(back)) {
    if (key == "autoencoder trained on") {
      CHECK(value == "train split less its 500 validation rows (seed 7)");
      named = true;
    }
  }
  CHECK(named);
  nlohmann::json unlabelled = doc;
  unlabelled["autoencoder_split"] = "unlabelled";
  CHECK(refusal(unlabelled) ==
        "'autoencoder_held_out' is recorded for the 'unlabelled' split; rows are held out of "
        "the train split only");
  nlohmann::json zero = doc;
  zero["autoencoder_held_out"] = 0;
  CHECK(refusal(zero) == "'autoencoder_held_out' is 0, not in 1..1099511627776");
  nlohmann::json no_seed = doc;
  no_seed.erase("autoencoder_held_out_seed");
  CHECK(refusal(no_seed) == "'autoencoder_held_out_seed' is missing");
  const DataRecord none =
      data_record_from_json(nlohmann::json::parse(data_record_json(stl10_record()).dump()));
  CHECK(none.autoencoder_held_out == 0);
  CHECK(data_record_json(stl10_record()).dump().find("held_out") == std::string::npos);
}

TEST_CASE("the report's rows name every recorded setting") {
  const DataRecord r = stl10_record();
  const auto rows = data_record_rows(r);
  const auto value = [&rows](const std::string& key) {
    for (const auto& [k, v] : rows) {
      if (k == key) return v;
    }
    return std::string("(absent)");
  };
  CHECK(value("data") == "stl/");
  CHECK(value("data format") == "stl10 (recognised)");
  CHECK(value("image shape") == "3x96x96");
  CHECK(value("classes") == "2: airplane, bird");
  CHECK(value("unlabelled images") == "100000");
  CHECK(value("autoencoder trained on") == "unlabelled split");
  CHECK(value("split") == "(absent)");
  CHECK(value("data files") == "7 files, 2970000123 bytes; names and sizes sha256 " + std::string(64, 'f'));
  CHECK(data_record_summary(r) == "3x96x96 stl10 images from stl/ (files sha256 ffffffffffff)");
}
