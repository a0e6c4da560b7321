// The one JSON parser of cae (io/strict_json.hpp): nesting is bounded before
// any walk over the value can overflow the stack, and what a message quotes
// of a file's value is an excerpt, never the whole value.
#include <doctest/doctest.h>

#include <string>

#include "io/io_error.hpp"
#include "io/strict_json.hpp"

namespace {

std::string nested(size_t depth, char open, char close, const std::string& inner = "") {
  return std::string(depth, open) + inner + std::string(depth, close);
}

std::string refusal(const std::string& text) {
  try {
    cae::parse_strict_json(text, "x.json");
  } catch (const cae::IoError& error) {
    return error.what();
  }
  return "(accepted)";
}

}  // namespace

TEST_CASE("JSON nested deeper than the limit is refused in one short line") {
  for (size_t depth : {size_t(cae::kMaxJsonDepth + 1), size_t(10000), size_t(100000)}) {
    const std::string message = refusal(nested(depth, '[', ']'));
    CHECK(message == "x.json: bad JSON: nested deeper than 64 levels");
  }
  // Objects count as levels too, and so does a mix.
  std::string objects;
  for (int i = 0; i < 100000; ++i) objects += "{\"a\":";
  objects += "1" + std::string(100000, '}');
  CHECK(refusal(objects) == "x.json: bad JSON: nested deeper than 64 levels");
  CHECK(refusal(nested(50000, '[', ']', nested(50000, '{', '}'))).find("nested deeper") !=
        std::string::npos);
}

TEST_CASE("JSON as deep as the limit is read") {
  CHECK(cae::parse_strict_json(nested(cae::kMaxJsonDepth, '[', ']'), "x.json").is_array());
}

TEST_CASE("a huge value is quoted by an excerpt") {
  const std::string huge(100000, 'x');
  const std::string excerpt = cae::json_excerpt(nlohmann::json(huge));
  CHECK(excerpt.size() < 100);
  CHECK(excerpt.find("(100002 bytes)") != std::string::npos);
  // nlohmann's syntax errors quote what they last read: a whole string.
  const std::string message = refusal("{\"a\": \"" + huge + "\n\"}");
  CHECK(message.rfind("x.json: bad JSON: ", 0) == 0);
  CHECK(message.size() < 300);
  // A repeated key of 100,000 bytes is named by its excerpt.
  const std::string twice = refusal("{\"" + huge + "\": 1, \"" + huge + "\": 2}");
  CHECK(twice.find("twice in the top level") != std::string::npos);
  CHECK(twice.size() < 200);
  CHECK(cae::text_excerpt("short") == "short");
  // Cut before a UTF-8 sequence, not inside it: no \x escape appears.
  CHECK(cae::text_excerpt(std::string(59, 'a') + "\xc3\xa9" + std::string(10, 'b')).find("\\x") ==
        std::string::npos);
}
