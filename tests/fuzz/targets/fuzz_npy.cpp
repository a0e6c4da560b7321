// Fuzzes the .npy readers (features and labels): magic, version, header dict,
// dtype, shape against data size, integer widths, finite values, labels.
#include <cstddef>
#include <cstdint>
#include <string>

#include "io/io_error.hpp"
#include "io/npy.hpp"
#include "reader_contract.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  try {
    (void)cae::parse_npy_matrix(bytes, cae::fuzz::kPath);
  } catch (const cae::IoError& error) {
    cae::fuzz::require_good_message(error.what());
  }
  try {
    (void)cae::parse_npy_integers(bytes, cae::fuzz::kPath);
  } catch (const cae::IoError& error) {
    cae::fuzz::require_good_message(error.what());
  }
  return 0;
}
