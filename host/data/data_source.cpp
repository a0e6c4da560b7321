#include "data/data_source.hpp"

#include <filesystem>
#include <stdexcept>

#include "data/data_error.hpp"
#include "data/sources.hpp"

namespace cae {
namespace {

struct FormatName {
  DataFormat format;
  const char* name;
};

constexpr FormatName kFormatNames[] = {
    {DataFormat::kAuto, "auto"},     {DataFormat::kCifar10, "cifar10"},
    {DataFormat::kCifar100, "cifar100"}, {DataFormat::kStl10, "stl10"},
    {DataFormat::kFolder, "folder"}, {DataFormat::kNpy, "npy"},
    {DataFormat::kSynthetic, "synthetic"}};

}  // namespace

DataFormat parse_data_format(const std::string& name) {
  for (const FormatName& entry : kFormatNames) {
    if (name == entry.name) return entry.format;
  }
  throw std::invalid_argument(
      "--data-format must be auto, cifar10, cifar100, stl10, folder, npy or synthetic, got '" +
      name + "'");
}

const char* data_format_name(DataFormat format) {
  for (const FormatName& entry : kFormatNames) {
    if (format == entry.format) return entry.name;
  }
  throw std::logic_error("unknown data format");
}

ResizeMode parse_resize_mode(const std::string& name) {
  if (name == "box") return ResizeMode::kBox;
  if (name == "crop") return ResizeMode::kCrop;
  throw std::invalid_argument("--resize must be box or crop, got '" + name + "'");
}

const char* resize_mode_name(ResizeMode mode) { return mode == ResizeMode::kBox ? "box" : "crop"; }

DataFormat sniff_data_format(const std::string& path) {
  std::error_code error;
  if (!std::filesystem::exists(path, error)) throw DataError("data " + path + " does not exist");
  // The binary formats first: their file names are unambiguous, while a
  // folder of images is recognised by whatever images it holds.
  if (recognises_cifar10(path)) return DataFormat::kCifar10;
  if (recognises_cifar100(path)) return DataFormat::kCifar100;
  if (recognises_stl10(path)) return DataFormat::kStl10;
  if (recognises_npy(path)) return DataFormat::kNpy;
  if (recognises_folder(path)) return DataFormat::kFolder;
  throw DataError(path +
                  " is not a data set cae recognises (CIFAR-10/100 or STL-10 binary files, .npy "
                  "arrays, or a folder of .png/.jpg/.bmp images); name it with --data-format");
}

DataSplits load_data(const std::string& path, const DataOptions& options) {
  const DataFormat format =
      options.format == DataFormat::kAuto ? sniff_data_format(path) : options.format;
  switch (format) {
    case DataFormat::kCifar10:
      return load_cifar10_data(path, options);
    case DataFormat::kCifar100:
      return load_cifar100_data(path, options);
    case DataFormat::kStl10:
      return load_stl10_data(path, options);
    case DataFormat::kFolder:
      return load_folder_data(path, options);
    case DataFormat::kNpy:
      return load_npy_data(path, options);
    case DataFormat::kSynthetic:
      return load_synthetic_data(options);
    case DataFormat::kAuto:
      break;
  }
  throw std::logic_error("unsniffed data format");
}

}  // namespace cae
