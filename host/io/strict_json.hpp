// JSON read from a file, strictly: nlohmann keeps the last of two equal keys
// without a word, so a file naming a tensor or a metadata field twice would
// be read as something other than it claims. Every JSON cae reads (safetensors
// headers, checkpoint metadata, features.json, report.json, certification
// records, model descriptions) goes through here: a key repeated in any
// object is refused, and so is nesting deeper than kMaxJsonDepth, since every
// walk over a value (dump, comparison, the readers' own checks) recurses once
// per level and a hostile file of 100,000 brackets would overflow the stack.
// nlohmann's errors become one line naming the file, without library codes.
#pragma once

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <string_view>

namespace cae {

// No file cae reads nests deeper than a handful of levels.
constexpr int kMaxJsonDepth = 64;

// Why a text is not JSON cae reads, without the file's name: "number
// overflow ...", "nested deeper than 64 levels", or (repeated_key) "has the
// key 'K' twice in <where>" (where: "the top level" or "'PARENT'").
class JsonRefused : public std::runtime_error {
 public:
  JsonRefused(const std::string& reason, bool repeated_key)
      : std::runtime_error(reason), repeated_key(repeated_key) {}
  bool repeated_key;
};

// The strict parse without a file: throws JsonRefused.
nlohmann::json parse_json_text(std::string_view text);

// Throws IoError "<path>: bad <what>: <reason>" or "<path>: <what> has the
// key 'K' twice in <where>". `what` names the text ("JSON", "JSON header").
nlohmann::json parse_strict_json(std::string_view text, const std::string& path,
                                 const std::string& what = "JSON");

// A value read from a file, fit to quote in a one-line message: its JSON text,
// printable, cut to a short excerpt (a 100,000-character string is quoted by
// its first characters and its length, not whole).
std::string json_excerpt(const nlohmann::json& value);

}  // namespace cae
