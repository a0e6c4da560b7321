#pragma once
// The preamble of a NumPy .npy file: magic "\x93NUMPY", version, header length,
// then a Python dict literal {'descr': ..., 'fortran_order': ..., 'shape': (...)}.

#include <cstdint>
#include <string>
#include <vector>

namespace cae {

struct NpyHeader {
  std::string descr;  // e.g. "<f4", "|u1"
  bool fortran_order = false;
  std::vector<uint64_t> shape;
  size_t data_offset = 0;  // where the array bytes start in the file
};

// Magic, version 1.0, length and dict, padded so the data starts 64-byte aligned.
std::string encode_npy_header(const std::string& descr, const std::vector<uint64_t>& shape);

// Parses versions 1.0, 2.0 and 3.0. `path` only names the file in IoError messages.
NpyHeader parse_npy_header(const std::string& bytes, const std::string& path);

}  // namespace cae
