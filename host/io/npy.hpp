#pragma once
// NumPy .npy files for the feature vectors and labels that `cae` exports (and
// `cae svm --features DIR` reads back): float32 matrices and integer vectors.
// Written atomically as version 1.0, readable with numpy.load.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace cae {

struct FloatMatrix {
  size_t rows = 0;
  size_t cols = 0;
  std::vector<float> values;  // rows * cols, row-major
};

// float32 2-D ('<f4', C order). `data` holds rows * cols values.
void write_npy_matrix(const std::string& path, const float* data, size_t rows, size_t cols);
// uint8 / int32 1-D ('|u1' / '<i4').
void write_npy_vector(const std::string& path, const std::vector<uint8_t>& values);
void write_npy_vector(const std::string& path, const std::vector<int32_t>& values);

// A 2-D '<f4' C-order array. Throws IoError for anything else.
FloatMatrix read_npy_matrix(const std::string& path);
// A 1-D array of any little-endian (or single-byte) integer type up to 8 bytes.
std::vector<int64_t> read_npy_integers(const std::string& path);

}  // namespace cae
