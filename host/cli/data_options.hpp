// The options that say where the images come from (--data, --data-format and
// the format's own settings), shared by train, extract, evaluate, pipeline and
// `data check`.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "command.hpp"
#include "data/data_source.hpp"
#include "nn/architecture.hpp"

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

// The data settings that change results, for a report's settings table.
std::vector<std::pair<std::string, std::string>> data_settings(const DataRequest& request,
                                                               const DataSplits& data);

// The images the autoencoder trains on: the unlabelled split with
// --unlabelled, else the training split.
const ImageSet& autoencoder_images(const DataSplits& data, const DataRequest& request);

// The network's input shape follows the data it was made for; a source of
// another shape is refused with one line naming both.
void require_network_input(const nn::Network& network, const ImageSet& images,
                           const std::string& where);

// A classifier needs labels: a source without them (a flat folder, an .npy
// array without labels.npy) is refused for `command`.
void require_labelled(const DataSplits& data, const std::string& command);

}  // namespace cae::cli
