// `cae data fetch|synth|check DIR`: get an official data set, make a synthetic
// one, or validate any data set cae reads.
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "commands.hpp"
#include "data_formats_help.hpp"
#include "data/cifar_check.hpp"
#include "data/data_check.hpp"
#include "data_options.hpp"
#include "data/synthetic_dataset.hpp"
#include "ignored_options.hpp"
#include "io/directory.hpp"
#include "option_checks.hpp"
#include "path_options.hpp"

namespace cae::cli {
namespace {

const char* const kDataActionsHelp =
    "fetch  download the official binary archive (CIFAR-10, CIFAR-100, or STL-10's 2.5 GB),\n"
    "       check its published MD5, unpack it into DIR and check the set.\n"
    "synth  write a procedurally generated 10-class set in the CIFAR-10 binary format.\n"
    "check  validate a set (sizes, labels, every image of a folder decoded, every float of\n"
    "       an .npy checked) and count its images per split and class; a large file is\n"
    "       checked without being held in memory.\n\n";

// The archives as their authors publish them, with the MD5 sums they list.
struct OfficialArchive {
  const char* name;  // --dataset
  const char* url;
  const char* md5;
  const char* size;  // for the progress line
  DataFormat format;
};

constexpr OfficialArchive kArchives[] = {
    {"cifar10", "https://www.cs.toronto.edu/~kriz/cifar-10-binary.tar.gz",
     "c32a1d4ab5d03f1284b67883e8d87530", "163 MB", DataFormat::kCifar10},
    {"cifar100", "https://www.cs.toronto.edu/~kriz/cifar-100-binary.tar.gz",
     "03b5dce01913d631647c71ecec9e9cb8", "161 MB", DataFormat::kCifar100},
    {"stl10", "http://ai.stanford.edu/~acoates/stl10/stl10_binary.tar.gz",
     "91f7769df0f17e558f3565bffb0c7dfb", "2.5 GB", DataFormat::kStl10},
};

const OfficialArchive& archive_named(const std::string& name) {
  for (const OfficialArchive& archive : kArchives) {
    if (name == archive.name) return archive;
  }
  throw UsageError("--dataset must be cifar10, cifar100 or stl10, got '" + name + "'");
}

// The summary `data check` prints: CIFAR-10's own (with its file list), or
// the general one of every other format.
std::string check_summary(const std::string& dir, DataOptions options,
                          const po::variables_map* given = nullptr) {
  if (options.format == DataFormat::kAuto) options.format = sniff_data_format(dir);
  if (given) {
    // Image folders and a single images.npy may be split by --test-fraction.
    refuse_data_options_unused(*given, options.format,
                               options.format == DataFormat::kFolder ||
                                   options.format == DataFormat::kNpy,
                               dir);
  }
  if (options.format == DataFormat::kCifar10) return describe(check_cifar(dir));
  return describe(check_data(dir, options));
}

bool have(const char* tool) {
  return std::system((std::string("command -v ") + tool + " >/dev/null 2>&1").c_str()) == 0;
}

std::string quoted(const std::string& text) {
  std::string q = "'";
  for (char c : text) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

int fetch(const std::string& dir, const OfficialArchive& official) {
  ensure_directory(dir);
  const std::string url = official.url, md5 = official.md5;
  const std::string archive = dir + "/" + std::filesystem::path(url).filename().string();
  const std::string partial = archive + ".part";
  if (!std::filesystem::exists(archive)) {
    std::string download;
    if (have("curl")) {
      download = "curl -fsSL --retry 2 --connect-timeout 20 -o " + quoted(partial) + " " + url;
    } else if (have("wget")) {
      download = "wget -q --tries=2 --timeout=20 -O " + quoted(partial) + " " + url;
    } else {
      throw std::runtime_error("neither curl nor wget is installed; install one, or copy " + url +
                               " to " + archive);
    }
    std::cout << "downloading " << url << " (" << official.size << ")\n" << std::flush;
    if (std::system(download.c_str()) != 0) {
      std::filesystem::remove(partial);
      throw std::runtime_error("download of " + url +
                               " failed (offline?); `cae data synth DIR` makes a synthetic set instead");
    }
    std::filesystem::rename(partial, archive);
  }
  std::cout << "checking MD5 " << md5 << "\n";
  std::string check = "echo '" + md5 + "  " + archive + "' | md5sum -c --status";
  if (std::system(check.c_str()) != 0) {
    throw std::runtime_error(archive + " does not have the published MD5 " + md5 +
                             " (corrupt download? delete it and fetch again)");
  }
  if (std::system(("tar -xzf " + quoted(archive) + " -C " + quoted(dir)).c_str()) != 0) {
    throw std::runtime_error("cannot unpack " + archive);
  }
  DataOptions options;
  options.format = official.format;
  std::cout << check_summary(dir, options) << "\n";
  return 0;
}

// Each action's own options: given to another action, they are refused
// (ignored_options.hpp), not dropped.
void refuse_other_actions_options(const po::variables_map& vm, const std::string& action) {
  const std::string reason = "is not an option of `cae data " + action + "`";
  if (action != "fetch") refuse_given_options(vm, {"dataset"}, reason + " (fetch only)");
  if (action != "synth") {
    refuse_given_options(vm, {"train", "test", "seed", "force"}, reason + " (synth only)");
  }
  if (action != "check") {
    refuse_given_options(vm, {"data-format", "labels", "image-size", "resize", "test-fraction",
                              "split-seed", "memory-cap"},
                         reason + " (check only)");
  }
}

int run_data(const po::variables_map& vm) {
  if (!vm.count("action") || !vm.count("dir")) {
    throw UsageError("usage: cae data fetch|synth|check DIR");
  }
  const std::string action = vm["action"].as<std::string>();
  if (action == "fetch" || action == "synth" || action == "check") {
    refuse_other_actions_options(vm, action);
  }
  const std::string dir = vm["dir"].as<std::string>();
  if (dir.empty()) throw UsageError("DIR is empty; name the dataset folder");
  if (action == "fetch") {
    const OfficialArchive& archive = archive_named(vm["dataset"].as<std::string>());
    // The archive and whatever it unpacks to: their names are the archive's.
    const FolderClaim claim = claim_output_directory(
        dir, {std::filesystem::path(archive.url).filename().string() + ".part"}, "DIR");
    return fetch(dir, archive);
  }
  if (action == "synth") {
    auto train = option_in_range<int64_t>(vm, "train", 10, 1000000);
    auto test = option_in_range<int64_t>(vm, "test", 10, 1000000);
    auto seed = vm["seed"].as<uint64_t>();
    const FolderClaim claim =
        claim_output_directory(dir, synthetic_cifar_files(size_t(train)), "DIR");
    write_synthetic_cifar(
        dir, size_t(train), size_t(test), seed,
        vm.count("force") ? SyntheticOverwrite::kReplace : SyntheticOverwrite::kRefuse);
    std::cout << "wrote a synthetic 10-class set (" << train << " train, " << test
              << " test images, seed " << seed << ") to " << dir << "\n";
    return 0;
  }
  if (action == "check") {
    std::cout << check_summary(dir, data_options_from(vm), &vm) << "\n";
    return 0;
  }
  throw UsageError("unknown data action '" + action + "' (fetch, synth or check)");
}

}  // namespace

Command data_command() {
  return {"data",
          "cae data fetch DIR [--dataset cifar10|cifar100|stl10] | synth DIR [--train N] [--test N] "
          "[--seed S] [--force] | check PATH [--data-format F] [format options]",
          "Fetch CIFAR-10, CIFAR-100 or STL-10, write a synthetic set, or check any data set",
          [](po::options_description& options, po::positional_options_description& positionals) {
            options.add_options()
                ("action", po::value<std::string>()->value_name("ACTION"), "fetch | synth | check (or the first word)")
                ("dir", path_value("DIR")->value_name("DIR"), "the dataset folder (check: or .npy file; or the second word)")
                ("dataset", po::value<std::string>()->default_value("cifar10")->value_name("NAME"),
                 "fetch: cifar10, cifar100 or stl10 (the official archive, checked against its published MD5)")
                ("train", po::value<int64_t>()->default_value(5000)->value_name("N"), "synth: training images")
                ("test", po::value<int64_t>()->default_value(1000)->value_name("N"), "synth: test images")
                ("seed", po::value<uint64_t>()->default_value(1)->value_name("S"), "synth: random seed")
                ("force", "synth: replace the CIFAR-10 files DIR already holds (refused without it)");
            add_data_format_options(options);
            positionals.add("action", 1).add("dir", 1);
          },
          run_data,
          std::string(kDataActionsHelp) + kDataFormatsHelp};
}

}  // namespace cae::cli
