// The top-level translation of whatever a command throws into one line in the
// user's terms: what is wrong and, where a user can do something about it,
// what to do. No library's internal message reaches the terminal unexplained.
#pragma once

#include <exception>
#include <string>

namespace cae::cli {

// One line (no newline) for the exception `failure` holds.
std::string failure_message(const std::exception_ptr& failure);

}  // namespace cae::cli
