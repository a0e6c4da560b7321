#pragma once
// The contract of a data source (--data) under fuzzing: load_data either
// throws one of cae's errors (DataError, or IoError from the .npy layer) with
// one line naming a file of the scratch folder, or
// gives splits whose every image can be read (again DataError at worst) and
// whose labels name a class.

#include <cstdlib>
#include <string>
#include <vector>

#include "data/data_error.hpp"
#include "data/data_source.hpp"
#include "io/io_error.hpp"
#include "reader_contract.hpp"
#include "scratch_folder.hpp"

namespace cae::fuzz {

inline void read_every_image(const ImageSet& set, size_t classes) {
  std::vector<uint8_t> image(set.image_bytes());
  for (size_t i = 0; i < set.size(); ++i) {
    if (classes != 0 && set.labels[i] >= classes) std::abort();
    set.copy_image(i, image.data());
  }
}

inline void load_and_read(const std::string& path, const DataOptions& options) {
  try {
    const DataSplits data = load_data(path, options);
    const size_t classes = data.labelled ? data.class_names.size() : 0;
    read_every_image(data.train, classes);
    read_every_image(data.test, classes);
    read_every_image(data.unlabelled, 0);
  } catch (const DataError& error) {
    require_good_message(error.what(), scratch_folder());
  } catch (const IoError& error) {
    require_good_message(error.what(), scratch_folder());
  }
}

}  // namespace cae::fuzz
