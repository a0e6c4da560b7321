// Whether a text (a message, a page, a file) holds a part: what most output
// checks of the test programs ask.
#pragma once

#include <string>

namespace test_support {

inline bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace test_support
