#include "data_options.hpp"

#include <cmath>
#include <filesystem>
#include <optional>
#include <ostream>

#include "nn/architecture.hpp"
#include "ignored_options.hpp"
#include "option_checks.hpp"
#include "path_options.hpp"

namespace cae::cli {
namespace {

constexpr int64_t kMaxMemoryCapMiB = int64_t(1) << 30;

template <class Parse>
auto parsed(const po::variables_map& vm, const char* name, Parse parse) {
  try {
    return parse(vm[name].as<std::string>());
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
}

std::string default_data_dir() {
  for (const char* candidate : {"data/cifar-10-batches-bin", "data"}) {
    if (std::filesystem::exists(std::string(candidate) + "/test_batch.bin")) return candidate;
  }
  throw UsageError(
      "no --data given and no CIFAR-10 under data/: run `cae data fetch data`, `cae data synth "
      "DIR`, or give --data PATH (see `cae help data` for the formats)");
}

}  // namespace

void add_data_options(po::options_description& options) {
  options.add_options()
      ("data", path_value("--data")->value_name("PATH"),
       "the images: a CIFAR-10, CIFAR-100 or STL-10 binary folder, a folder of PNG/JPEG/BMP "
       "images (one subfolder per class), or .npy arrays; the format is recognised from what PATH "
       "holds (default: data/, if `cae data fetch data` put CIFAR-10 there)");
  add_data_format_options(options);
}

void add_data_format_options(po::options_description& options) {
  options.add_options()
      ("data-format", po::value<std::string>()->default_value("auto")->value_name("F"),
       "auto | cifar10 | cifar100 | stl10 | folder | npy | synthetic (the generated 10-class set, "
       "made in memory; no --data)")
      ("labels", po::value<std::string>()->default_value("fine")->value_name("fine|coarse"),
       "CIFAR-100: the 100 classes (fine) or the 20 superclasses (coarse)")
      ("image-size", po::value<int>()->default_value(0)->value_name("N"),
       "image folders: side of the square images every file is brought to (0 = the first "
       "image's shorter side)")
      ("resize", po::value<std::string>()->default_value("box")->value_name("box|crop"),
       "image folders: box-filter the whole image to the square, or keep its centred square")
      ("test-fraction", po::value<double>()->default_value(0.2, "0.2")->value_name("F"),
       "image folders without train/ and test/, and a single images.npy: the share of each "
       "class held out for testing")
      ("split-seed", po::value<uint64_t>()->default_value(1)->value_name("S"),
       "the seed of that split (the same seed gives the same split in every command)")
      ("memory-cap", po::value<int64_t>()->default_value(int64_t(kDefaultMemoryCapBytes >> 20))->value_name("MIB"),
       "a split whose pixels exceed this many MiB stays on disk and is read batch by batch "
       "(results are the same either way)");
}

void add_unlabelled_option(po::options_description& options) {
  options.add_options()("unlabelled",
                        "train the autoencoder on the source's unlabelled split (STL-10's "
                        "unlabeled_X.bin, 100,000 images) instead of its training split");
}

bool data_given(const po::variables_map& vm) {
  return vm.count("data") || vm["data-format"].as<std::string>() == "synthetic";
}

DataOptions data_options_from(const po::variables_map& vm) {
  DataOptions options;
  options.format = parsed(vm, "data-format", parse_data_format);
  options.resize = parsed(vm, "resize", parse_resize_mode);
  const std::string labels = vm["labels"].as<std::string>();
  if (labels != "fine" && labels != "coarse") {
    throw UsageError("--labels must be fine or coarse, got '" + labels + "'");
  }
  options.coarse_labels = labels == "coarse";
  options.image_size = option_in_range(vm, "image-size", 0, 4096);
  options.test_fraction = vm["test-fraction"].as<double>();
  if (!(options.test_fraction > 0.0 && options.test_fraction < 1.0)) {
    throw UsageError("--test-fraction must be between 0 and 1 (exclusive), got " +
                     number_text(options.test_fraction));
  }
  options.split_seed = vm["split-seed"].as<uint64_t>();
  options.memory_cap_bytes =
      uint64_t(option_in_range<int64_t>(vm, "memory-cap", 0, kMaxMemoryCapMiB)) << 20;
  options.unlabelled = vm.count("unlabelled") > 0;
  return options;
}

DataRequest data_request_from(const po::variables_map& vm) {
  DataRequest request;
  request.options = data_options_from(vm);
  if (request.options.format == DataFormat::kSynthetic) {
    if (vm.count("data")) throw UsageError("--data-format synthetic makes its images; drop --data");
    return request;
  }
  if (vm.count("data")) {
    request.path = vm["data"].as<std::string>();
    if (request.path.empty()) throw UsageError("--data is empty; it must name a data set");
  } else {
    request.path = default_data_dir();
  }
  return request;
}

void refuse_data_options_unused(const po::variables_map& vm, DataFormat format,
                                bool fraction_split, const std::string& location) {
  const std::string holds = location + " holds " + data_format_name(format) + " data";
  if (format != DataFormat::kCifar100) {
    refuse_given_options(vm, {"labels"}, "chooses CIFAR-100's fine or coarse classes; " + holds);
  }
  if (format != DataFormat::kFolder) {
    refuse_given_options(vm, {"image-size", "resize"},
                         "applies to image folders only; " + holds +
                             ", whose images have a fixed shape");
  }
  if (!fraction_split) {
    refuse_given_options(vm, {"test-fraction", "split-seed"},
                         "splits data without a test split of its own (an image folder without "
                         "train/ and test/, a single images.npy); " + holds + " with one");
  }
}

DataSplits load_requested_data(const po::variables_map& vm, const DataRequest& request) {
  DataSplits data = load_data(request.path, request.options);
  refuse_data_options_unused(vm, data.format, data.fraction_split,
                             request.path.empty() ? "the generated set" : request.path);
  return data;
}

DataRecord data_record_from(const DataRequest& request, const DataSplits& data,
                            const ImageSet* autoencoder) {
  DataRecord record = record_data(data, request.options, request.path);
  if (autoencoder) record.autoencoder_split = autoencoder == &data.unlabelled ? "unlabelled" : "train";
  return record;
}

const ImageSet& autoencoder_images(const DataSplits& data, const DataRequest& request) {
  if (!request.options.unlabelled) return data.train;
  if (data.unlabelled.size() == 0) {
    throw UsageError(std::string("--unlabelled: ") + data_format_name(data.format) + " data in " +
                     data.location + " has no unlabelled split (only STL-10 has one)");
  }
  return data.unlabelled;
}

void require_network_input(const nn::Network& network, const ImageSet& images,
                           const std::string& where) {
  if (images.channels == network.image_channels() && images.side == network.image_side()) return;
  const std::string side = std::to_string(network.image_side());
  throw std::runtime_error(where + " holds " + std::to_string(images.side) + "x" +
                           std::to_string(images.side) + " images with " +
                           std::to_string(images.channels) + " channel(s); the model '" +
                           network.description().name + "' takes " + side + "x" + side +
                           " images with " + std::to_string(network.image_channels()) +
                           " channels (for an image folder, --image-size " + side + ")");
}

namespace {

std::string given_text(const DataRecord& given) {
  return (given.path.empty() ? std::string("the generated set") : given.path) + " gives " +
         given.shape_and_format() + " images";
}

}  // namespace

void require_trained_input(const std::string& weights, const nn::Checkpoint& checkpoint,
                           const DataRecord& given) {
  const nn::Network& network = checkpoint.parameters.network;
  if (given.channels == network.image_channels() && given.side == network.image_side()) return;
  const std::optional<DataRecord>& trained = checkpoint.state.data;
  const std::string side = std::to_string(network.image_side());
  const std::string hint =
      given.format == "folder"
          ? " (give --image-size " + side + " to bring the folder's images to it)"
          : " (only image folders are resized, with --image-size " + side + ")";
  const std::string trained_text =
      trained ? "was trained on " + data_record_summary(*trained)
              : "holds the model '" + network.description().name + "' for " +
                    std::to_string(network.image_channels()) + "x" + side + "x" + side +
                    " images (its data is not recorded)";
  throw std::runtime_error(weights + " " + trained_text + ", but " + given_text(given) +
                           "; a network encodes only images of the shape it was trained on" +
                           (given.channels == network.image_channels() ? hint : std::string()));
}

void note_transfer(const std::string& weights, const nn::Checkpoint& checkpoint,
                   const DataRecord& given, std::ostream& log) {
  const std::optional<DataRecord>& trained = checkpoint.state.data;
  if (!trained || trained->files_sha256 == given.files_sha256) return;
  log << "transfer: " << weights << " was trained on " << data_record_summary(*trained) << "; "
      << given_text(given) << " of the same shape\n";
}

void require_labelled(const DataSplits& data, const std::string& command) {
  if (data.labelled) return;
  throw UsageError(command + " needs labelled images, but " + data.location +
                   " has none (a flat folder, or .npy images without labels.npy); put the images "
                   "in one subfolder per class, or use `cae train` alone");
}

}  // namespace cae::cli
