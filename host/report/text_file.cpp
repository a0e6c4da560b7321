#include "report/text_file.hpp"

#include "io/binary_file.hpp"

namespace cae {

std::string read_text_file(const std::filesystem::path& path) {
  // Refuses FIFOs and devices (io/regular_file.hpp), and a file far larger
  // than any run writes (a 4,096-class confusion table is about 200 MiB).
  return read_binary_file(path.string(), kMaxRunTextFileBytes, "a run's report, table or figure");
}

}  // namespace cae
