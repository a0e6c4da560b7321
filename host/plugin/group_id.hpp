// The group id file of a distributed run (docs/distributed.md): what rank 0
// writes for the other ranks to read, as text:
//   cae-group-id 1
//   backend <name>
//   exchange backend|files
//   id <lowercase hex>
// Every rank must run the same backend; the id is the backend's (exchange
// "backend") or a random name for the host's file exchange ("files").
#pragma once

#include <string>
#include <vector>

namespace cae {

struct GroupId {
  std::string backend;
  std::string exchange;
  std::vector<unsigned char> bytes;
};

inline constexpr const char* kBackendExchange = "backend";
inline constexpr const char* kFileExchange = "files";

// Lowercase hex of `bytes`.
std::string to_hex(const std::vector<unsigned char>& bytes);

// The file's text for `id`.
std::string group_id_text(const GroupId& id);

// Reads group_id_text()'s format back; throws std::runtime_error (one line
// naming `path`) for anything else: another magic line, unknown keys or
// exchange, a backend name that is not printable ASCII, an id that is empty,
// longer than 4,096 bytes or not lowercase hex, or anything after the id.
GroupId parse_group_id(const std::string& text, const std::string& path);

}  // namespace cae
