// Fuzzes the CIFAR-10 batch reader: record size and labels, appended to a set
// that already holds images (it must stay unchanged when the input is bad).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "data/cifar_files.hpp"
#include "data/data_error.hpp"
#include "reader_contract.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  cae::ImageSet set;
  set.labels.assign(2, 3);
  set.pixels.assign(2 * cae::cifar::kImageBytes, 7);
  try {
    const size_t added = cae::parse_records(bytes, cae::fuzz::kPath, set);
    if (set.size() != 2 + added || set.pixels.size() != set.size() * cae::cifar::kImageBytes)
      std::abort();
    for (uint8_t label : set.labels) {
      if (label >= cae::cifar::kNumClasses) std::abort();
    }
  } catch (const cae::DataError& error) {
    cae::fuzz::require_good_message(error.what());
    if (set.size() != 2 || set.pixels.size() != 2 * cae::cifar::kImageBytes) std::abort();
  }
  // The file-name parser of data_batch_<n>.bin sees names from directory listings.
  (void)cae::train_batch_number(bytes.substr(0, 64));
  return 0;
}
