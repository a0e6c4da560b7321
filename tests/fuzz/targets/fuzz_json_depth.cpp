// Fuzzes the one JSON parser every reader of JSON goes through
// (io/strict_json.hpp) for depth and size: an input whose first byte is odd
// has the rest repeated to 300,000 bytes, so a short unit such as `[{"a":`
// becomes nesting far past any stack. The parser must refuse what is deeper
// than kMaxJsonDepth before anything walks it; what it accepts must be
// walkable (dumped, compared, destroyed) within that depth; a refusal is one
// short line naming the file, quoting an excerpt, never a whole value.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "io/io_error.hpp"
#include "io/strict_json.hpp"
#include "reader_contract.hpp"

namespace {

// Counted without recursion, so the check itself cannot overflow.
int depth_of(const nlohmann::json& root) {
  int deepest = 0;
  std::vector<std::pair<const nlohmann::json*, int>> open{{&root, 0}};
  while (!open.empty()) {
    const auto [value, depth] = open.back();
    open.pop_back();
    if (!value->is_structured()) continue;
    deepest = std::max(deepest, depth + 1);
    for (const auto& child : *value) open.emplace_back(&child, depth + 1);
  }
  return deepest;
}

constexpr size_t kMessageLimit = 400;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  if ((data[0] & 1) != 0 && !text.empty()) {
    const std::string unit = text;
    while (text.size() < 300000) text += unit;
  }
  try {
    const nlohmann::json value = cae::parse_strict_json(text, cae::fuzz::kPath);
    if (depth_of(value) > cae::kMaxJsonDepth) std::abort();
    if (cae::json_excerpt(value).size() > kMessageLimit) std::abort();
    const nlohmann::json copy = value;  // a deep copy and comparison recurse too
    if (copy != value) std::abort();
  } catch (const cae::IoError& error) {
    cae::fuzz::require_good_message(error.what());
    if (std::string(error.what()).size() > kMessageLimit) {
      std::fprintf(stderr, "message longer than %zu bytes: quotes more than an excerpt\n", kMessageLimit);
      std::abort();
    }
  }
  return 0;
}
