#include "io/strict_json.hpp"

#include <set>
#include <vector>

#include "io/io_error.hpp"

namespace cae {
namespace {

struct RepeatedKey {
  std::string key, parent;
};

}  // namespace

nlohmann::json parse_strict_json(std::string_view text, const std::string& path,
                                 const std::string& what) {
  using Json = nlohmann::json;
  // One set of keys per open object; the key that opened each object names it.
  std::vector<std::set<std::string>> keys;
  std::vector<std::string> parents;
  std::string last_key;
  const Json::parser_callback_t check = [&](int, Json::parse_event_t event, Json& parsed) {
    switch (event) {
      case Json::parse_event_t::object_start:
        keys.emplace_back();
        parents.push_back(last_key);
        break;
      case Json::parse_event_t::object_end:
        keys.pop_back();
        parents.pop_back();
        break;
      case Json::parse_event_t::array_start:
        last_key.clear();
        break;
      case Json::parse_event_t::key: {
        const std::string key = parsed.get<std::string>();
        if (!keys.empty() && !keys.back().insert(key).second) {
          throw RepeatedKey{key, parents.empty() ? std::string() : parents.back()};
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
  } catch (const RepeatedKey& repeated) {
    throw IoError(path + ": " + what + " has the key '" + printable_text(repeated.key) + "' twice in " +
                  (repeated.parent.empty() ? std::string("the top level")
                                           : "'" + printable_text(repeated.parent) + "'"));
  } catch (const Json::exception& error) {  // syntax, and numbers too large such as 1e999
    throw IoError(path + ": bad " + what + ": " + json_error_text(error.what()));
  }
}

}  // namespace cae
