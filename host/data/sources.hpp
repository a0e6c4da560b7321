#pragma once
// One loader per format (each in its own file), behind load_data. Each takes
// the path given to --data and the options, and throws DataError with one
// line naming the file and the problem. `recognises_*` are the sniffing tests:
// cheap looks at file names, no image read.

#include <string>

#include "data/data_source.hpp"

namespace cae {

bool recognises_cifar10(const std::string& path);
DataSplits load_cifar10_data(const std::string& path, const DataOptions& options);

bool recognises_cifar100(const std::string& path);
DataSplits load_cifar100_data(const std::string& path, const DataOptions& options);

bool recognises_stl10(const std::string& path);
DataSplits load_stl10_data(const std::string& path, const DataOptions& options);

bool recognises_npy(const std::string& path);
DataSplits load_npy_data(const std::string& path, const DataOptions& options);

bool recognises_folder(const std::string& path);
DataSplits load_folder_data(const std::string& path, const DataOptions& options);

// The generated 10-class set of `cae data synth`, made in memory (`path` unused).
DataSplits load_synthetic_data(const DataOptions& options);

}  // namespace cae
