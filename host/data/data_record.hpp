#pragma once
// What a product was made from: the data settings that decide what a network
// learns from or what features describe (format, image shape, resize mode,
// label set, class names, split, image counts) and an identity of the files.
// Checkpoints, features.json and reports carry it; `cae info --weights`
// prints it; extract, evaluate and train --resume compare it with the data
// they are given.
//
// The identity is the SHA-256 of every file's name (relative to the data's
// location) and size, in the order the source read them: cheap (no pixel is
// read, which matters for STL-10's 2.8 GB), unchanged by copying, moving or
// re-fetching the same set, and different for another set, another subset of
// files or a file of another length. It does not see a file edited in place
// to the same length; hashing every byte would, at the cost of reading the
// whole set again on every command.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "data/data_source.hpp"

namespace cae {

struct DataRecord {
  std::string format;          // data_format_name(): cifar10, stl10, folder, ...
  bool format_given = false;   // forced with --data-format (else recognised)
  std::string path;            // --data as given ("" for the synthetic set)
  int channels = 0;
  int side = 0;
  std::string resize;          // image folders: "box" or "crop"; else ""
  std::string labels;          // CIFAR-100: "fine" or "coarse"; else ""
  std::vector<std::string> class_names;  // empty for unlabelled data
  int64_t train_images = 0;
  int64_t test_images = 0;
  int64_t unlabelled_images = 0;  // the unlabelled split, when it was loaded
  // The split the autoencoder trained on ("train" or "unlabelled"); "" for
  // products of no training (features, evaluation).
  std::string autoencoder_split;
  // Rows of the training split kept out of the autoencoder's images as the
  // classifier's validation split (`cae pipeline --hold-out-validation`),
  // and the seed that chose them; 0 rows: none.
  int64_t autoencoder_held_out = 0;
  uint64_t autoencoder_held_out_seed = 0;
  bool fraction_split = false;  // the source split train/test by --test-fraction
  double test_fraction = 0;     // both only when fraction_split
  uint64_t split_seed = 0;
  int64_t files = 0;            // files the images were read from
  uint64_t file_bytes = 0;      // their total size
  std::string files_sha256;     // the identity above; "" for the synthetic set

  // "3x96x96 stl10", the words messages use.
  std::string shape_and_format() const;
};

// The record of `data`, loaded from `path` with `options`. Reads the files'
// sizes (a DataError names a file that vanished since).
DataRecord record_data(const DataSplits& data, const DataOptions& options, const std::string& path);

nlohmann::ordered_json data_record_json(const DataRecord& record);
// Throws std::invalid_argument "'<field>' ..." for anything but what
// data_record_json writes: a field missing or of another type, a number out
// of its range.
DataRecord data_record_from_json(const nlohmann::json& doc);

// The record as a report's settings rows and `cae info`'s lines.
std::vector<std::pair<std::string, std::string>> data_record_rows(const DataRecord& record);

// One line: "3x96x96 stl10 images from PATH (files sha256 3f2a9c01b7e4)".
std::string data_record_summary(const DataRecord& record);

}  // namespace cae
