#include "data/data_file.hpp"

#include <unistd.h>

#include "data/data_error.hpp"
#include "io/io_error.hpp"
#include "io/output_set.hpp"

namespace cae {

namespace {

void require_member_of_its_set(const std::string& path) {
  try {
    check_set_member(path);
  } catch (const IoError& error) {
    throw DataError(error.what());
  }
}

}  // namespace

UniqueFile open_data_file(const std::string& path) {
  std::string error;
  UniqueFile file = open_regular_file(path, error);
  if (!file) throw DataError(error);
  require_member_of_its_set(path);
  return file;
}

int open_data_descriptor(const std::string& path) {
  std::string error;
  const int fd = open_regular_descriptor(path, error);
  if (fd < 0) throw DataError(error);
  try {
    require_member_of_its_set(path);
  } catch (...) {
    ::close(fd);
    throw;
  }
  return fd;
}

}  // namespace cae
