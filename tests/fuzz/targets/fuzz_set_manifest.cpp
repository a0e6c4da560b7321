// Fuzzes the output set's manifest (FOLDER/cae-set.json), which every reader
// of a file in that folder checks: its JSON, format, version, state and the
// entry (size, hash) of the file being read.
#include <cstddef>
#include <cstdint>
#include <string>

#include "io/io_error.hpp"
#include "io/output_set.hpp"
#include "reader_contract.hpp"
#include "scratch_folder.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cae::fuzz;
  // The member's bytes and name are the ones make-seeds.py records.
  static const std::string member_bytes = "member of the set\n";
  static const std::string member = put_scratch_file("member.npy", member_bytes);
  put_scratch_file(cae::kSetManifestName, std::string(reinterpret_cast<const char*>(data), size));
  try {
    cae::check_set_member(member, member_bytes);
  } catch (const cae::IoError& error) {
    require_good_message(error.what(), cae::kSetManifestName);
  }
  try {
    cae::check_set_member(member);
  } catch (const cae::IoError& error) {
    require_good_message(error.what(), cae::kSetManifestName);
  }
  return 0;
}
