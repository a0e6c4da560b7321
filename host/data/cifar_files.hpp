#pragma once
// Finding and reading the files of a CIFAR-10 directory. Shared by the loader
// (load_cifar) and the checker (check_cifar); every problem is a DataError.

#include <array>
#include <string>
#include <vector>

#include "data/cifar_format.hpp"
#include "data/image_set.hpp"

namespace cae {

struct CifarFiles {
  std::string dir;                 // the folder that holds the files
  std::vector<std::string> train;  // data_batch_<n>.bin in numeric order (at least one)
  std::string test;                // test_batch.bin
  std::string meta;                // batches.meta.txt

  std::vector<std::string> all() const;  // every file above
};

// Accepts DIR itself or DIR/cifar-10-batches-bin. Requires test_batch.bin,
// batches.meta.txt and at least one data_batch_<n>.bin.
CifarFiles locate_cifar(const std::string& dir);

// n of a file name "data_batch_<n>.bin" (n >= 1), or 0 for any other name.
size_t train_batch_number(const std::string& file_name);

// The first 10 non-empty lines of batches.meta.txt (read_names_file).
std::vector<std::string> read_class_names(const std::string& meta_path);

// The number of records in `path`, after checking its size is a positive
// multiple of the record size.
size_t count_records(const std::string& path);

// Counts the labels of every record of `path` into `per_class` and `images`,
// reading a few thousand records at a time (a file larger than memory is
// checked too), rejecting labels >= 10 with the record's index.
void count_labels(const std::string& path, std::array<size_t, cifar::kNumClasses>& per_class,
                  size_t& images);

// Appends the first `max_records` records of `path` (all when 0) to `into`,
// rejecting labels >= 10. Returns how many were appended.
size_t read_records(const std::string& path, size_t max_records, ImageSet& into);

// The same for records already in memory (`path` names them in messages): the
// size must be a multiple of the record size and every label 0..9; `into` is
// unchanged when either is not.
size_t parse_records(const std::string& bytes, const std::string& path, ImageSet& into);

}  // namespace cae
