#include "io/strict_json.hpp"

#include <set>
#include <vector>

#include "io/io_error.hpp"

namespace cae {

nlohmann::json parse_json_text(std::string_view text) {
  using Json = nlohmann::json;
  // One set of keys per open object; the key that opened each object names it.
  std::vector<std::set<std::string>> keys;
  std::vector<std::string> parents;
  std::string last_key;
  const auto open = [](int depth) {
    // `depth` counts the containers already open around this one; the parser
    // itself keeps its stack on the heap, so refusing here, before the value
    // grows deeper, is what keeps every later walk over it bounded.
    if (depth >= kMaxJsonDepth) {
      throw JsonRefused("nested deeper than " + std::to_string(kMaxJsonDepth) + " levels", false);
    }
  };
  const Json::parser_callback_t check = [&](int depth, Json::parse_event_t event, Json& parsed) {
    switch (event) {
      case Json::parse_event_t::object_start:
        open(depth);
        keys.emplace_back();
        parents.push_back(last_key);
        break;
      case Json::parse_event_t::object_end:
        keys.pop_back();
        parents.pop_back();
        break;
      case Json::parse_event_t::array_start:
        open(depth);
        last_key.clear();
        break;
      case Json::parse_event_t::key: {
        const std::string key = parsed.get<std::string>();
        if (!keys.empty() && !keys.back().insert(key).second) {
          const std::string parent = parents.empty() ? std::string() : parents.back();
          throw JsonRefused("has the key '" + text_excerpt(key) + "' twice in " +
                                (parent.empty() ? std::string("the top level")
                                                : "'" + text_excerpt(parent) + "'"),
                            true);
        }
        last_key = key;
        break;
      }
      default:
        break;
    }
    return true;
  };
  try {
    return Json::parse(text.begin(), text.end(), check);
  } catch (const Json::exception& error) {  // syntax, and numbers too large such as 1e999
    throw JsonRefused(json_error_text(error.what()), false);
  }
}

nlohmann::json parse_strict_json(std::string_view text, const std::string& path,
                                 const std::string& what) {
  try {
    return parse_json_text(text);
  } catch (const JsonRefused& refused) {
    throw IoError(path + (refused.repeated_key ? ": " + what + " " : ": bad " + what + ": ") +
                  refused.what());
  }
}

std::string json_excerpt(const nlohmann::json& value) {
  // Values come from a depth-checked parse, so dump's recursion is bounded;
  // invalid UTF-8 is replaced rather than thrown about mid-message.
  return text_excerpt(value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

}  // namespace cae
