#pragma once
// `cae data check` for every format: reads each split the way a run would,
// but with the memory cap at zero, so nothing larger than the labels is ever
// held -- a 2.8 GB file is checked by its size and label file, a folder by
// decoding one image at a time.

#include <cstddef>
#include <string>
#include <vector>

#include "data/data_source.hpp"

namespace cae {

struct SplitCount {
  std::string name;  // train, test, unlabelled
  size_t images = 0;
  std::vector<size_t> per_class;  // empty for an unlabelled split
};

struct DataSummary {
  DataFormat format = DataFormat::kAuto;
  std::string location;
  int channels = 0;
  int side = 0;
  std::vector<std::string> class_names;
  std::vector<SplitCount> splits;
};

// Throws DataError on the first problem. STL-10's unlabelled split is counted
// when its file is there.
DataSummary check_data(const std::string& path, DataOptions options);

// A few lines for a person: format, shape, images per split, a per-class table.
std::string describe(const DataSummary& summary);

}  // namespace cae
