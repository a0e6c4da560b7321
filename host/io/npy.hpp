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

// A 2-D '<f4' C-order array of finite values. Throws IoError for anything
// else, naming the file (and the row and column of a NaN or infinity).
FloatMatrix read_npy_matrix(const std::string& path);
// A 1-D array of any little-endian (or single-byte) integer type up to 8 bytes.
std::vector<int64_t> read_npy_integers(const std::string& path);
// Class labels: read_npy_integers plus every value in 0..classes-1; an
// IoError names the file, the index and the value otherwise.
std::vector<int32_t> read_npy_labels(const std::string& path, int64_t classes);

// The readers above for the file's bytes already in memory (`path` names the
// file in messages).
FloatMatrix parse_npy_matrix(const std::string& bytes, const std::string& path);
std::vector<int64_t> parse_npy_integers(const std::string& bytes, const std::string& path);

}  // namespace cae
