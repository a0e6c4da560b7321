#pragma once
// Opening a file of a data set: a regular file (a FIFO, device or socket is
// refused before an open that could block, io/regular_file.hpp) that, when
// its folder records an output set (a `cae data synth` set,
// io/output_set.hpp), is the file of that set and not one of another run.
// Every error is a DataError naming the file.

#include <string>

#include "io/regular_file.hpp"

namespace cae {

UniqueFile open_data_file(const std::string& path);

// The same, as a blocking descriptor for pread (the caller closes it).
int open_data_descriptor(const std::string& path);

}  // namespace cae
