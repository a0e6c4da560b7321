// The options that say where the images come from (--data, --data-format and
// the format's own settings), shared by train, extract, evaluate, pipeline and
// `data check`.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "command.hpp"
#include "data/data_record.hpp"
#include "data/data_source.hpp"
#include "nn/architecture.hpp"
#include "nn/checkpoint.hpp"

namespace cae::cli {

// --data, --data-format, --labels, --image-size, --resize, --test-fraction,
// --split-seed, --memory-cap.
void add_data_options(po::options_description& options);
// The same without --data, for `cae data check PATH`.
void add_data_format_options(po::options_description& options);
// --unlabelled, for the commands that train the autoencoder.
void add_unlabelled_option(po::options_description& options);

struct DataRequest {
  std::string path;  // empty for the synthetic format
  DataOptions options;
};

// Every option but --data, checked (UsageError naming the option).
DataOptions data_options_from(const po::variables_map& vm);
// Checks every data option (UsageError naming the option). Without --data,
// data/ when CIFAR-10 was fetched there; otherwise a UsageError.
DataRequest data_request_from(const po::variables_map& vm);
// Whether --data or --data-format synthetic was given.
bool data_given(const po::variables_map& vm);

// load_data for the request, then a UsageError (exit 2) for a data option
// the user gave that this data does not use (--labels on anything but
// CIFAR-100, --image-size or --resize on anything but an image folder,
// --test-fraction or --split-seed on data with a test split of its own):
// an option is used or refused, never dropped (ignored_options.hpp).
DataSplits load_requested_data(const po::variables_map& vm, const DataRequest& request);
// The refusal alone, for `data check`, which reads the data its own way:
// `fraction_split` is whether the data is split by --test-fraction.
void refuse_data_options_unused(const po::variables_map& vm, DataFormat format,
                                bool fraction_split, const std::string& location);

// What `data` is, for checkpoints, features.json and reports
// (data/data_record.hpp); `autoencoder` the images a run trains on, if any.
DataRecord data_record_from(const DataRequest& request, const DataSplits& data,
                            const ImageSet* autoencoder = nullptr);

// The images the autoencoder trains on: the unlabelled split with
// --unlabelled, else the training split.
const ImageSet& autoencoder_images(const DataSplits& data, const DataRequest& request);

// The network's input shape follows the data it was made for; a source of
// another shape is refused with one line naming both.
void require_network_input(const nn::Network& network, const ImageSet& images,
                           const std::string& where);

// A trained network applied to other data (extract, evaluate, train
// --resume): images of another shape than the checkpoint's are refused with
// one line naming both, e.g. "M was trained on 3x96x96 stl10 images from S,
// but C gives 3x32x32 cifar10 images".
void require_trained_input(const std::string& weights, const nn::Checkpoint& checkpoint,
                           const DataRecord& given);
// The same shape from other files is a legitimate transfer: allowed, and
// said on `log` (once every check has passed, so an error stays one line).
void note_transfer(const std::string& weights, const nn::Checkpoint& checkpoint,
                   const DataRecord& given, std::ostream& log);

// A classifier needs labels: a source without them (a flat folder, an .npy
// array without labels.npy) is refused for `command`.
void require_labelled(const DataSplits& data, const std::string& command);

}  // namespace cae::cli
