#include "plugin/group_id.hpp"

#include <sstream>
#include <stdexcept>

namespace cae {
namespace {

constexpr const char* kMagic = "cae-group-id 1";
// NCCL's unique id is 128 bytes; the file exchange's name 16. The bound
// keeps a hostile file from making the other ranks allocate without limit.
constexpr size_t kMaxIdBytes = 4096;
constexpr size_t kMaxBackendName = 256;

std::runtime_error not_a_group_id(const std::string& path, const std::string& why) {
  return std::runtime_error(path + " is not a cae group id file (" + why + ")");
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

std::vector<unsigned char> from_hex(const std::string& text, const std::string& path) {
  if (text.empty() || text.size() % 2 != 0 || text.size() / 2 > kMaxIdBytes) {
    throw not_a_group_id(path, "bad id");
  }
  std::vector<unsigned char> bytes;
  for (size_t i = 0; i < text.size(); i += 2) {
    const int high = hex_value(text[i]), low = hex_value(text[i + 1]);
    if (high < 0 || low < 0) throw not_a_group_id(path, "bad id");
    bytes.push_back(static_cast<unsigned char>(high * 16 + low));
  }
  return bytes;
}

// The name is quoted in messages: printable ASCII only (the reading splits at
// spaces, so a name never holds one).
bool is_plain_name(const std::string& name) {
  if (name.empty() || name.size() > kMaxBackendName) return false;
  for (char c : name) {
    if (c < '!' || c > '~') return false;
  }
  return true;
}

}  // namespace

std::string to_hex(const std::vector<unsigned char>& bytes) {
  static const char digits[] = "0123456789abcdef";
  std::string text;
  for (unsigned char b : bytes) {
    text += digits[b >> 4];
    text += digits[b & 15];
  }
  return text;
}

std::string group_id_text(const GroupId& id) {
  return std::string(kMagic) + "\nbackend " + id.backend + "\nexchange " + id.exchange + "\nid " +
         to_hex(id.bytes) + "\n";
}

GroupId parse_group_id(const std::string& text, const std::string& path) {
  std::istringstream in(text);
  std::string magic, key_backend, key_exchange, key_id, hex, rest;
  GroupId id;
  std::getline(in, magic);
  in >> key_backend >> id.backend >> key_exchange >> id.exchange >> key_id >> hex;
  if (magic != kMagic || key_backend != "backend" || key_exchange != "exchange" ||
      key_id != "id" || (id.exchange != kBackendExchange && id.exchange != kFileExchange)) {
    throw not_a_group_id(path, "expected the lines cae-group-id 1, backend, exchange, id");
  }
  if (!is_plain_name(id.backend)) throw not_a_group_id(path, "bad backend name");
  id.bytes = from_hex(hex, path);
  if (in >> rest) throw not_a_group_id(path, "text after the id");
  return id;
}

}  // namespace cae
