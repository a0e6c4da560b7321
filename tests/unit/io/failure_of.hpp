#pragma once
// The message of what an action throws, for tests of cae's one-line errors.

#include <exception>
#include <functional>
#include <string>

namespace cae::test {

// what() of the exception `action` throws, or "(no error)".
inline std::string failure_of(const std::function<void()>& action) {
  try {
    action();
  } catch (const std::exception& error) {
    return error.what();
  }
  return "(no error)";
}

}  // namespace cae::test
