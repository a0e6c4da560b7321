// Fuzzes the group id file of distributed runs (--nccl-id-file), which every
// rank but rank 0 reads: the magic line, the keys, the exchange, the backend
// name and the hex id. What it accepts is written back identically.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "plugin/group_id.hpp"
#include "reader_contract.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  cae::GroupId id;
  try {
    id = cae::parse_group_id(text, cae::fuzz::kPath);
  } catch (const std::runtime_error& error) {
    cae::fuzz::require_good_message(error.what());
    return 0;
  }
  if (id.bytes.empty()) std::abort();
  const cae::GroupId again = cae::parse_group_id(cae::group_id_text(id), cae::fuzz::kPath);
  if (again.backend != id.backend || again.exchange != id.exchange || again.bytes != id.bytes) {
    std::abort();
  }
  return 0;
}
