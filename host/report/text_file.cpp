#include "report/text_file.hpp"

#include "io/binary_file.hpp"

namespace cae {

std::string read_text_file(const std::filesystem::path& path) {
  return read_binary_file(path.string());  // refuses FIFOs and devices, see io/regular_file.hpp
}

}  // namespace cae
