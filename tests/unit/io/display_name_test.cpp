// Names shown in figures, JSON and messages: UTF-8 without control
// characters, bounded; printable_text escapes what is neither.
#include "io/display_name.hpp"

#include <doctest/doctest.h>

#include <string>

#include "io/io_error.hpp"

namespace cae {
namespace {

TEST_CASE("display names: UTF-8 without control characters, at most 256 bytes") {
  CHECK(display_name_problem("cat").empty());
  CHECK(display_name_problem("K\xc3\xa4tzchen \xe2\x98\x83 \xf0\x9f\x90\x88").empty());
  CHECK(display_name_problem(std::string(256, 'a')).empty());
  CHECK(display_name_problem(std::string(257, 'a')) == "is longer than 256 bytes");
  CHECK(display_name_problem("caf\xe9") == "is not UTF-8");
  CHECK(display_name_problem("\xc3") == "is not UTF-8");                  // cut short
  CHECK(display_name_problem("\xc0\x80") == "is not UTF-8");              // overlong NUL
  CHECK(display_name_problem("\xed\xa0\x80") == "is not UTF-8");          // a surrogate
  CHECK(display_name_problem("\xf4\x90\x80\x80") == "is not UTF-8");      // past U+10FFFF
  CHECK(display_name_problem(std::string("a\0b", 3)) == "holds a control character");
  CHECK(display_name_problem("a\tb") == "holds a control character");
  CHECK(display_name_problem("a\x7f") == "holds a control character");
  CHECK(display_name_problem("a\xc2\x85") == "holds a control character");  // NEL, U+0085
}

TEST_CASE("printable_text escapes control characters and bytes that are not UTF-8") {
  CHECK(printable_text("two\nlines") == "two\\x0alines");
  CHECK(printable_text("caf\xe9!") == "caf\\xe9!");
  CHECK(printable_text("K\xc3\xa4tzchen") == "K\xc3\xa4tzchen");
}

}  // namespace
}  // namespace cae
