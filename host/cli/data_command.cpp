// `cae data fetch|synth|check DIR`: get, make or validate a CIFAR-10 folder.
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "commands.hpp"
#include "data/cifar_check.hpp"
#include "data/synthetic_dataset.hpp"
#include "io/directory.hpp"
#include "option_checks.hpp"

namespace cae::cli {
namespace {

constexpr const char* kCifarUrl = "https://www.cs.toronto.edu/~kriz/cifar-10-binary.tar.gz";
constexpr const char* kCifarMd5 = "c32a1d4ab5d03f1284b67883e8d87530";

bool have(const char* tool) {
  return std::system((std::string("command -v ") + tool + " >/dev/null 2>&1").c_str()) == 0;
}

std::string quoted(const std::string& text) {
  std::string q = "'";
  for (char c : text) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

int fetch(const std::string& dir) {
  ensure_directory(dir);
  const std::string archive = dir + "/cifar-10-binary.tar.gz";
  const std::string partial = archive + ".part";
  if (!std::filesystem::exists(archive)) {
    std::string download;
    if (have("curl")) {
      download = "curl -fsSL --retry 2 --connect-timeout 20 -o " + quoted(partial) + " " + kCifarUrl;
    } else if (have("wget")) {
      download = "wget -q --tries=2 --timeout=20 -O " + quoted(partial) + " " + kCifarUrl;
    } else {
      throw std::runtime_error("neither curl nor wget is installed; install one, or copy " +
                               std::string(kCifarUrl) + " to " + archive);
    }
    std::cout << "downloading " << kCifarUrl << " (163 MB)\n" << std::flush;
    if (std::system(download.c_str()) != 0) {
      std::filesystem::remove(partial);
      throw std::runtime_error(std::string("download of ") + kCifarUrl +
                               " failed (offline?); `cae data synth DIR` makes a synthetic set instead");
    }
    std::filesystem::rename(partial, archive);
  }
  std::cout << "checking MD5 " << kCifarMd5 << "\n";
  std::string check = "echo '" + std::string(kCifarMd5) + "  " + archive + "' | md5sum -c --status";
  if (std::system(check.c_str()) != 0) {
    throw std::runtime_error(archive + " does not have the published MD5 " + kCifarMd5 +
                             " (corrupt download? delete it and fetch again)");
  }
  if (std::system(("tar -xzf " + quoted(archive) + " -C " + quoted(dir)).c_str()) != 0) {
    throw std::runtime_error("cannot unpack " + archive);
  }
  std::cout << describe(check_cifar(dir)) << "\n";
  return 0;
}

int run_data(const po::variables_map& vm) {
  if (!vm.count("action") || !vm.count("dir")) {
    throw UsageError("usage: cae data fetch|synth|check DIR");
  }
  const std::string action = vm["action"].as<std::string>();
  const std::string dir = vm["dir"].as<std::string>();
  if (dir.empty()) throw UsageError("DIR is empty; name the dataset folder");
  if (action == "fetch") {
    const OutputLock lock = claim_output_directory(dir, "DIR");
    return fetch(dir);
  }
  if (action == "synth") {
    auto train = option_in_range<int64_t>(vm, "train", 10, 1000000);
    auto test = option_in_range<int64_t>(vm, "test", 10, 1000000);
    auto seed = vm["seed"].as<uint64_t>();
    const OutputLock lock = claim_output_directory(dir, "DIR");
    write_synthetic_cifar(
        dir, size_t(train), size_t(test), seed,
        vm.count("force") ? SyntheticOverwrite::kReplace : SyntheticOverwrite::kRefuse);
    std::cout << "wrote a synthetic 10-class set (" << train << " train, " << test
              << " test images, seed " << seed << ") to " << dir << "\n";
    return 0;
  }
  if (action == "check") {
    std::cout << describe(check_cifar(dir)) << "\n";
    return 0;
  }
  throw UsageError("unknown data action '" + action + "' (fetch, synth or check)");
}

}  // namespace

Command data_command() {
  return {"data", "cae data fetch|synth|check DIR [--train N] [--test N] [--seed S] [--force]",
          "Download CIFAR-10 (MD5-checked), write a synthetic 10-class set, or validate a folder",
          [](po::options_description& options, po::positional_options_description& positionals) {
            options.add_options()
                ("action", po::value<std::string>(), "fetch | synth | check")
                ("dir", po::value<std::string>(), "the dataset folder")
                ("train", po::value<int64_t>()->default_value(5000)->value_name("N"), "synth: training images")
                ("test", po::value<int64_t>()->default_value(1000)->value_name("N"), "synth: test images")
                ("seed", po::value<uint64_t>()->default_value(1)->value_name("S"), "synth: random seed")
                ("force", "synth: replace the CIFAR-10 files DIR already holds (refused without it)");
            positionals.add("action", 1).add("dir", 1);
          },
          run_data};
}

}  // namespace cae::cli
