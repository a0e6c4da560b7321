#include "data/cifar_files.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <utility>

#include "data/cifar_format.hpp"
#include "data/data_error.hpp"
#include "data/data_file.hpp"
#include "data/dataset_folder.hpp"
#include "io/io_error.hpp"

namespace cae {

namespace fs = std::filesystem;

namespace {

bool is_file(const fs::path& path) {
  std::error_code error;
  return fs::is_regular_file(path, error);
}

// Something of a CIFAR-10 file's name that is not a file (a folder, a device)
// is a mistake to name as such, not a "missing" file.
void require_file_if_present(const fs::path& path) {
  std::error_code error;
  const fs::file_status status = fs::status(path, error);
  // A name that exists but cannot be followed (a loop of symbolic links, no
  // permission on the way) is that, not "missing".
  if (error && error != std::errc::no_such_file_or_directory) {
    throw DataError(describe_path_error(path.string(), error));
  }
  if (!fs::exists(status) || fs::is_regular_file(status)) return;
  throw DataError(path.string() + " is " + special_file_kind(status) + ", not a CIFAR-10 batch file");
}

std::vector<std::string> train_files_in(const fs::path& dir) {
  std::vector<std::pair<size_t, std::string>> numbered;
  std::error_code error;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir, error)) {
    const size_t number = train_batch_number(entry.path().filename().string());
    if (number == 0) continue;
    require_file_if_present(entry.path());
    numbered.emplace_back(number, entry.path().string());
  }
  std::sort(numbered.begin(), numbered.end());
  std::vector<std::string> files;
  for (auto& [number, path] : numbered) files.push_back(std::move(path));
  return files;
}

std::string cannot_read(const std::string& path, int errno_value) {
  return "cannot read " + path + ": " + std::strerror(errno_value);
}

}  // namespace

std::vector<std::string> CifarFiles::all() const {
  std::vector<std::string> files = train;
  files.push_back(test);
  files.push_back(meta);
  return files;
}

size_t train_batch_number(const std::string& name) {
  const std::string prefix = cifar::kTrainPrefix, suffix = ".bin";
  if (name.size() <= prefix.size() + suffix.size() || name.compare(0, prefix.size(), prefix) != 0 ||
      name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0) {
    return 0;
  }
  const std::string digits =
      name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
  if (digits.size() > 6 || !std::all_of(digits.begin(), digits.end(),
                                        [](unsigned char c) { return std::isdigit(c) != 0; })) {
    return 0;
  }
  return std::stoul(digits);
}

CifarFiles locate_cifar(const std::string& dir) {
  std::error_code error;
  if (!fs::is_directory(dir, error)) {
    if (error && error != std::errc::no_such_file_or_directory) {
      throw DataError(describe_path_error(dir, error));
    }
    throw DataError("CIFAR-10 directory " + dir +
                    (fs::exists(dir, error) ? " is not a directory" : " does not exist"));
  }
  fs::path folder = dir;
  if (!holds_any_name(folder, {cifar::kTestFile, cifar::kMetaFile, "data_batch_1.bin"}) &&
      fs::is_directory(folder / cifar::kSubdirectory, error)) {
    folder /= cifar::kSubdirectory;
  }
  CifarFiles files;
  files.dir = folder.string();
  files.test = (folder / cifar::kTestFile).string();
  files.meta = (folder / cifar::kMetaFile).string();
  require_file_if_present(files.test);
  require_file_if_present(files.meta);
  if (!is_file(files.test)) throw DataError("missing CIFAR-10 test file " + files.test);
  if (!is_file(files.meta)) throw DataError("missing CIFAR-10 class names file " + files.meta);
  files.train = train_files_in(folder);
  if (files.train.empty()) {
    throw DataError("missing CIFAR-10 training files: no " + std::string(cifar::kTrainPrefix) +
                    "<n>.bin in " + files.dir);
  }
  return files;
}

std::vector<std::string> read_class_names(const std::string& meta_path) {
  return read_names_file(meta_path, cifar::kNumClasses, "CIFAR-10");
}

size_t count_records(const std::string& path) {
  std::error_code error;
  const uintmax_t bytes = fs::file_size(path, error);
  if (error) throw DataError("cannot read " + path + ": " + error.message());
  if (bytes == 0) throw DataError(path + " is empty");
  if (bytes % cifar::kRecordBytes != 0) {
    throw DataError(path + " is " + std::to_string(bytes) + " bytes, not a multiple of the " +
                    std::to_string(cifar::kRecordBytes) + "-byte record");
  }
  return static_cast<size_t>(bytes / cifar::kRecordBytes);
}

void count_labels(const std::string& path, std::array<size_t, cifar::kNumClasses>& per_class,
                  size_t& images) {
  const size_t available = count_records(path);
  // Like every data file: a regular file, and the one its folder's output
  // set lists (data_file.hpp).
  const UniqueFile file = open_data_file(path);
  constexpr size_t kChunkRecords = 4096;
  std::string chunk(kChunkRecords * cifar::kRecordBytes, '\0');
  for (size_t done = 0; done < available;) {
    const size_t count = std::min(kChunkRecords, available - done);
    const size_t got = std::fread(chunk.data(), 1, count * cifar::kRecordBytes, file.get());
    if (got != count * cifar::kRecordBytes) {
      if (std::ferror(file.get())) throw DataError(cannot_read(path, errno));
      throw DataError("cannot read " + path + ": it ended after " +
                      std::to_string(done * cifar::kRecordBytes + got) + " bytes");
    }
    for (size_t i = 0; i < count; ++i) {
      const auto label = static_cast<uint8_t>(chunk[i * cifar::kRecordBytes]);
      if (label >= cifar::kNumClasses) {
        throw DataError(path + ": record " + std::to_string(done + i) +
                        " (counting from 0) has label " + std::to_string(label) +
                        ", not a class 0.." + std::to_string(cifar::kNumClasses - 1));
      }
      ++per_class[label];
    }
    done += count;
  }
  images += available;
}

size_t read_records(const std::string& path, size_t max_records, ImageSet& into) {
  const size_t available = count_records(path);
  const size_t count = max_records == 0 ? available : std::min(available, max_records);
  const UniqueFile file = open_data_file(path);

  std::string records;
  try {
    records.resize(count * cifar::kRecordBytes);
  } catch (const std::exception&) {  // bad_alloc, length_error: say which file
    throw DataError(path + " holds " + std::to_string(count) + " images (" +
                    std::to_string(count * cifar::kRecordBytes / 1000000) +
                    " MB), more than this machine can hold in memory; check that it is the "
                    "expected file, or use --samples");
  }
  const size_t got = std::fread(records.data(), 1, records.size(), file.get());
  if (got != records.size()) {
    if (std::ferror(file.get())) throw DataError(cannot_read(path, errno));
    throw DataError("cannot read " + path + ": it ended after " + std::to_string(got) + " bytes");
  }
  return parse_records(records, path, into);
}

size_t parse_records(const std::string& bytes, const std::string& path, ImageSet& into) {
  if (bytes.size() % cifar::kRecordBytes != 0) {
    throw DataError(path + " is " + std::to_string(bytes.size()) +
                    " bytes, not a multiple of the " + std::to_string(cifar::kRecordBytes) +
                    "-byte record");
  }
  const size_t count = bytes.size() / cifar::kRecordBytes;
  // Every label is checked before anything is appended: `into` stays as it was on error.
  for (size_t i = 0; i < count; ++i) {
    const auto label = static_cast<uint8_t>(bytes[i * cifar::kRecordBytes]);
    if (label >= cifar::kNumClasses) {
      throw DataError(path + ": record " + std::to_string(i) + " (counting from 0) has label " +
                      std::to_string(label) + ", not a class 0.." +
                      std::to_string(cifar::kNumClasses - 1));
    }
  }
  const size_t first = into.size();
  into.labels.resize(first + count);
  into.pixels.resize((first + count) * cifar::kImageBytes);
  for (size_t i = 0; i < count; ++i) {
    const char* record = bytes.data() + i * cifar::kRecordBytes;
    into.labels[first + i] = static_cast<uint8_t>(record[0]);
    std::memcpy(into.pixels.data() + (first + i) * cifar::kImageBytes, record + 1,
                cifar::kImageBytes);
  }
  return count;
}

}  // namespace cae
