// Fuzzes the STL-10 binary source. The input's first byte n splits it: the
// next n bytes are the label files (train_y.bin, test_y.bin), the rest the
// image files (train_X.bin, test_X.bin, unlabeled_X.bin; 27,648 bytes an
// image, stored column-major).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include "data_source_contract.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cae::fuzz;
  static const bool names_written = [] {
    put_scratch_file("class_names.txt", "airplane\nbird\ncar\ncat\ndeer\ndog\nhorse\nmonkey\nship\ntruck\n");
    return true;
  }();
  (void)names_written;
  if (size == 0) return 0;
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  const size_t labels = std::min(size_t(uint8_t(bytes[0])), size - 1);
  put_scratch_file("train_y.bin", bytes.substr(1, labels));
  put_scratch_file("test_y.bin", bytes.substr(1, labels));
  const std::string images = bytes.substr(1 + labels);
  for (const char* name : {"train_X.bin", "test_X.bin", "unlabeled_X.bin"}) put_scratch_file(name, images);
  cae::DataOptions options;
  options.format = cae::DataFormat::kStl10;
  options.unlabelled = true;
  load_and_read(scratch_folder(), options);
  return 0;
}
