#include "option_checks.hpp"

#include <unistd.h>

#include <filesystem>

#include "io/directory.hpp"
#include "io/io_error.hpp"

namespace cae::cli {

void add_data_option(po::options_description& options) {
  options.add_options()("data", po::value<std::string>()->value_name("DIR"),
                        "CIFAR-10 binary folder (default: data/, if `cae data fetch data` put it there)");
}

void prepare_output_file(const std::string& path) {
  std::string dir = parent_directory(path);
  if (dir.empty()) dir = ".";
  ensure_directory(dir);
  if (access(dir.c_str(), W_OK) != 0) throw IoError("cannot write into " + dir + " (for " + path + ")");
}

std::string resolve_data_dir(const po::variables_map& vm) {
  if (vm.count("data")) return vm["data"].as<std::string>();
  for (const char* candidate : {"data/cifar-10-batches-bin", "data"}) {
    if (std::filesystem::exists(std::string(candidate) + "/test_batch.bin")) return candidate;
  }
  throw UsageError(
      "no --data given and no CIFAR-10 under data/: run `cae data fetch data` or `cae data synth DIR`");
}

}  // namespace cae::cli
