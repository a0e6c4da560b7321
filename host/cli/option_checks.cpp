#include "option_checks.hpp"

#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <typeinfo>

#include "io/directory.hpp"
#include "io/io_error.hpp"
#include "io/output_set.hpp"
#include "path_options.hpp"

namespace cae::cli {

namespace fs = std::filesystem;

namespace {

bool is_unsigned_type(const std::type_info& type) {
  return type == typeid(unsigned char) || type == typeid(unsigned short) ||
         type == typeid(unsigned int) || type == typeid(unsigned long) ||
         type == typeid(unsigned long long);
}

double floating_value(const boost::any& value) {
  if (value.type() == typeid(float)) return boost::any_cast<float>(value);
  return boost::any_cast<double>(value);
}

void require_writable_directory(const std::string& dir, const std::string& what) {
  ensure_directory(dir);
  if (::access(dir.c_str(), W_OK | X_OK) != 0) {
    throw IoError(describe_errno("cannot write into " + dir + " (for " + what + ")", errno));
  }
}

void require_not_empty(const std::string& path, const std::string& option) {
  if (path.empty()) throw UsageError(option + " is empty; it must name a path");
}

}  // namespace

void check_option_values(const po::parsed_options& parsed, const po::variables_map& vm) {
  for (const po::option& given : parsed.options) {
    if (given.unregistered || given.string_key.empty() || !vm.count(given.string_key)) continue;
    const boost::any& value = vm[given.string_key].value();
    const std::string token = given.value.empty() ? std::string() : given.value.back();
    const bool positional = given.position_key >= 0;
    std::string name = "--" + given.string_key;
    if (positional) {
      name = given.string_key;
      for (char& c : name) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
    for (const std::string& text : given.value) {
      // No option takes an empty value: '' is a mistake (an unset shell
      // variable), never a request for the default.
      if (text.find_first_not_of(" \t") == std::string::npos) {
        throw UsageError(name + " is empty; it must name a value (see `cae help`)");
      }
    }
    if (value.type() == typeid(float) || value.type() == typeid(double)) {
      if (!std::isfinite(floating_value(value))) {
        throw UsageError(name + " must be a finite number, got '" + token + "'");
      }
    } else if (is_unsigned_type(value.type())) {
      for (const std::string& text : given.value) {
        const size_t first = text.find_first_not_of(" \t");
        if (first != std::string::npos && text[first] == '-') {
          throw UsageError(name + " must be 0 or more, got '" + text + "'");
        }
      }
    }
  }
}

void prepare_output_file(const std::string& path, const std::string& option) {
  require_not_empty(path, option);
  std::error_code error;
  const fs::file_status status = fs::status(path, error);
  if (fs::is_directory(status)) {
    throw IoError(option + " " + path + " is a folder; name a file (for example " +
                  (fs::path(path) / "model").string() + ")");
  }
  if (fs::exists(status) && !fs::is_regular_file(status)) {
    throw IoError(option + " " + path + " exists and is not a regular file; name another path");
  }
  require_writable_directory(parent_directory(path), path);
}

void prepare_output_directory(const std::string& path, const std::string& option) {
  require_not_empty(path, option);
  std::error_code error;
  if (fs::exists(path, error) && !fs::is_directory(path, error)) {
    throw IoError(option + " " + path + " exists and is not a folder; name a folder");
  }
  require_writable_directory(path, path);
}

OutputLock claim_output_file(const std::string& path, const std::string& option) {
  prepare_output_file(path, option);
  return lock_output_file(path);
}

FolderClaim claim_output_directory(const std::string& path, std::vector<std::string> created,
                                   const std::string& option) {
  require_not_empty(path, option);
  // The lock's name is shorter than the manifest's, and a link at it is
  // refused by the lock itself, which follows none (io/output_lock.hpp).
  created.push_back(kSetManifestName);
  check_created_paths(option, path, created);
  prepare_output_directory(path, option);
  OutputLock lock = lock_output_directory(path);
  return FolderClaim{std::move(lock), ConfinedFolder(path)};
}

void require_not_an_input(const std::string& output, const std::vector<std::string>& inputs,
                          const std::string& option) {
  for (const std::string& input : inputs) {
    std::error_code error;
    if (fs::equivalent(output, input, error)) {
      throw UsageError(option + " " + output + " is also an input (" + input +
                       "); writing it would destroy that input: name another file");
    }
  }
}

void require_available(int64_t requested, size_t available, const std::string& option,
                       const std::string& where, const std::string& what) {
  if (requested > 0 && size_t(requested) > available) {
    throw UsageError(option + " " + std::to_string(requested) + ", but " + where + " holds only " +
                     std::to_string(available) + " " + what);
  }
}

}  // namespace cae::cli
