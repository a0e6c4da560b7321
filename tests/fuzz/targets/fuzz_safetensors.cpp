// Fuzzes the safetensors reader (checkpoints, SVM models): header length, JSON
// header, dtypes, shapes, offsets, metadata and the finite-value check.
#include <cstddef>
#include <cstdint>
#include <string>

#include "io/io_error.hpp"
#include "io/safetensors.hpp"
#include "reader_contract.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  try {
    const cae::SafetensorsFile file = cae::parse_safetensors(bytes, cae::fuzz::kPath);
    for (const cae::NamedTensor& tensor : file.tensors) (void)file.at(tensor.name);
  } catch (const cae::IoError& error) {
    cae::fuzz::require_good_message(error.what());
  }
  return 0;
}
