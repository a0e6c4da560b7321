#include "failure_message.hpp"

#include <filesystem>
#include <new>
#include <stdexcept>
#include <system_error>

#include "io/io_error.hpp"
#include "plugin/backend_error.hpp"

namespace cae::cli {

namespace {

// Some library messages embed newlines; the promise is one line per problem.
std::string single_line(std::string text) {
  for (char& c : text) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  while (!text.empty() && text.back() == ' ') text.pop_back();
  return text;
}

}  // namespace

std::string failure_message(const std::exception_ptr& failure) {
  try {
    std::rethrow_exception(failure);
  } catch (const BackendError& e) {
    // The one remedy a user can apply at once.
    return single_line(e.what()) +
           (e.status() == CAE_STATUS_OUT_OF_MEMORY ? " (try a smaller --batch)" : "");
  } catch (const std::bad_alloc&) {
    return "out of memory: the host could not allocate what this input needs (try a smaller "
           "--batch or --samples, or check that the input files are the expected ones)";
  } catch (const std::length_error&) {
    return "a size computed from the input is too large to hold in memory (check that the "
           "input files are the expected ones)";
  } catch (const std::filesystem::filesystem_error& e) {
    // The library's "filesystem error: cannot ...: ... [path]" in cae's terms:
    // the path, then what the system said, with what a loop means.
    return single_line(describe_filesystem_error(e));
  } catch (const std::system_error& e) {
    // Thread creation and locks report through system_error: a resource limit.
    return "the system refused a resource (" + single_line(e.what()) +
           "); try fewer --threads or check `ulimit -a`";
  } catch (const std::exception& e) {
    // Whatever reached here unwrapped loses nlohmann's "[json.exception...]" code.
    return single_line(json_error_text(e.what()));
  } catch (...) {
    return "an unexpected internal error (not a std::exception); please report it";
  }
}

}  // namespace cae::cli
