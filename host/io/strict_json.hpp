// JSON read from a file, strictly: nlohmann keeps the last of two equal keys
// without a word, so a file naming a tensor or a metadata field twice would
// be read as something other than it claims. Every file cae parses as JSON
// (safetensors headers, features.json, certification records) goes through
// here: a key repeated in any object is refused, and nlohmann's errors become
// one line naming the file, without library codes.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace cae {

// Throws IoError "<path>: bad <what>: <reason>" or "<path>: <what> has the
// key 'K' twice in <where>" (where: "the top level" or "'PARENT'"). `what`
// names the text ("JSON", "JSON header").
nlohmann::json parse_strict_json(std::string_view text, const std::string& path,
                                 const std::string& what = "JSON");

}  // namespace cae
