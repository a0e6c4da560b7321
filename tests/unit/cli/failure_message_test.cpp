// Whatever reaches main is one line in the user's terms (docs/reliability.md).
#include "failure_message.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <new>
#include <stdexcept>
#include <system_error>
#include <vector>

#include "plugin/backend_error.hpp"

using cae::cli::failure_message;

namespace {

template <class Exception>
std::string message_for(const Exception& exception) {
  return failure_message(std::make_exception_ptr(exception));
}

}  // namespace

TEST_CASE("memory and size failures get a remedy, not a library's words") {
  const std::string alloc = message_for(std::bad_alloc());
  CHECK(alloc.rfind("out of memory", 0) == 0);
  CHECK(alloc.find("--batch") != std::string::npos);
  CHECK(alloc.find("std::bad_alloc") == std::string::npos);
  std::string length;
  try {
    std::vector<float> huge;
    huge.reserve(huge.max_size() + 1);
  } catch (...) {
    length = failure_message(std::current_exception());
  }
  CHECK(length.rfind("a size computed from the input is too large", 0) == 0);
  CHECK(length.find("max_size") == std::string::npos);
}

TEST_CASE("a backend's out-of-memory suggests a smaller batch") {
  CHECK(message_for(cae::BackendError(CAE_STATUS_OUT_OF_MEMORY, "cannot allocate 8 GiB")) ==
        "cannot allocate 8 GiB (try a smaller --batch)");
  CHECK(message_for(cae::BackendError(CAE_STATUS_INVALID_ARGUMENT, "bad shape")) == "bad shape");
}

TEST_CASE("thread and resource failures say which limit to look at") {
  const std::string message = message_for(
      std::system_error(std::make_error_code(std::errc::resource_unavailable_try_again)));
  CHECK(message.rfind("the system refused a resource", 0) == 0);
  CHECK(message.find("--threads") != std::string::npos);
}

TEST_CASE("every message is one line") {
  CHECK(message_for(std::runtime_error("first\nsecond\r\n")) == "first second");
  const std::string fs_message = message_for(std::filesystem::filesystem_error(
      "cannot copy", "a", "b", std::make_error_code(std::errc::permission_denied)));
  CHECK(fs_message.find('\n') == std::string::npos);
  CHECK(fs_message.find("cannot copy") != std::string::npos);
  CHECK(fs_message.find("filesystem error") == std::string::npos);  // no library wording
  const std::string loop = message_for(std::filesystem::filesystem_error(
      "cannot create directories", "x/y",
      std::make_error_code(std::errc::too_many_symbolic_link_levels)));
  CHECK(loop.rfind("cannot create directories x/y: ", 0) == 0);
  CHECK(loop.find("(a loop of symbolic links)") != std::string::npos);
  try {
    throw 42;
  } catch (...) {
    CHECK(failure_message(std::current_exception()).rfind("an unexpected internal error", 0) == 0);
  }
}
