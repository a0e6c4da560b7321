// Encoder features: the 8x8x128 latent of every image as an 8,192-d row.
#pragma once

#include <iosfwd>
#include <vector>

#include "data/image_set.hpp"
#include "nn/autoencoder.hpp"

namespace cae::nn {

// Row-major [images.size(), 8192] in the latent's CHW order. Progress goes to
// `log` when given.
std::vector<float> extract_features(Context& context, Autoencoder& model, const ImageSet& images,
                                    int batch_size, std::ostream* log, const std::string& label);

// The same over several contexts of one backend (one per device): the
// images are split by rows into one contiguous range per device, each encoded
// by its own copy of the model on its own thread.
std::vector<float> extract_features(const std::vector<Context*>& contexts,
                                    const Parameters& parameters, const ImageSet& images,
                                    int batch_size, std::ostream* log, const std::string& label);

}  // namespace cae::nn
