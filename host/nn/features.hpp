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

}  // namespace cae::nn
