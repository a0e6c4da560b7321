// Fuzzes the CIFAR-100 binary source: the input is both train.bin and
// test.bin (3,074-byte records: coarse label, fine label, image), read with
// the fine and with the coarse labels.
#include <cstddef>
#include <cstdint>
#include <string>

#include "data_source_contract.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cae::fuzz;
  static const bool names_written = [] {
    std::string fine, coarse;
    for (int c = 0; c < 100; ++c) fine += "fine" + std::to_string(c) + "\n";
    for (int c = 0; c < 20; ++c) coarse += "coarse" + std::to_string(c) + "\n";
    put_scratch_file("fine_label_names.txt", fine);
    put_scratch_file("coarse_label_names.txt", coarse);
    return true;
  }();
  (void)names_written;
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  put_scratch_file("train.bin", bytes);
  put_scratch_file("test.bin", bytes);
  cae::DataOptions options;
  options.format = cae::DataFormat::kCifar100;
  for (bool coarse : {false, true}) {
    options.coarse_labels = coarse;
    load_and_read(scratch_folder(), options);
  }
  return 0;
}
