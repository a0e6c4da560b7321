// Fuzzes the class-names files of the binary data sets (CIFAR-10's
// batches.meta.txt, CIFAR-100's fine/coarse_label_names.txt, STL-10's
// class_names.txt): one reader, asked for 10, 20 and 100 names. What it
// accepts goes into report.json, figures and messages, so every name must be
// fit to show and serialise as JSON.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "data/cifar_files.hpp"
#include "data/data_error.hpp"
#include "data/dataset_folder.hpp"
#include "io/display_name.hpp"
#include "reader_contract.hpp"
#include "scratch_folder.hpp"

namespace {

void require_showable(const std::vector<std::string>& names, size_t expected) {
  if (names.size() != expected) std::abort();
  for (const std::string& name : names) {
    if (name.empty() || !cae::display_name_problem(name).empty()) std::abort();
  }
  (void)nlohmann::json(names).dump();  // throws (a finding) on bytes that are not UTF-8
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cae::fuzz;
  const std::string path =
      put_scratch_file("class_names.txt", std::string(reinterpret_cast<const char*>(data), size));
  try {
    require_showable(cae::read_class_names(path), 10);
  } catch (const cae::DataError& error) {
    require_good_message(error.what(), path);
  }
  for (size_t expected : {20, 100}) {
    try {
      require_showable(cae::read_names_file(path, expected, "CIFAR-100"), expected);
    } catch (const cae::DataError& error) {
      require_good_message(error.what(), path);
    }
  }
  return 0;
}
