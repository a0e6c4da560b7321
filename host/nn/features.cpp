#include "features.hpp"

#include <algorithm>
#include <memory>

#include "data/batcher.hpp"
#include "report/progress.hpp"

namespace cae::nn {

std::vector<float> extract_features(Context& context, Autoencoder& model, const ImageSet& images,
                                    int batch_size, std::ostream* log, const std::string& label) {
  std::vector<float> features(images.size() * size_t(kFeatureDim));
  std::vector<float> host(std::min(images.size(), size_t(batch_size)) * kImageFloats);
  std::unique_ptr<ProgressReporter> progress;
  if (log) {
    ProgressOptions options;
    options.label = label;
    options.unit = "img";
    options.out = log;
    progress = std::make_unique<ProgressReporter>(int64_t(images.size()), options);
  }
  Tensor input, latent;
  for (size_t start = 0; start < images.size(); start += size_t(batch_size)) {
    const size_t n = std::min(images.size() - start, size_t(batch_size));
    std::vector<size_t> indices(n);
    for (size_t i = 0; i < n; ++i) indices[i] = start + i;
    fill_batch(images, indices, host.data());
    if (!input || input.dims()[0] != int64_t(n)) {
      input = context.alloc({int64_t(n), kImageChannels, kImageSize, kImageSize});
      latent = context.alloc({int64_t(n), kLatentChannels, kLatentSize, kLatentSize});
    }
    input.upload(host.data(), n * kImageFloats);
    model.encode(input, latent);
    latent.download(features.data() + start * size_t(kFeatureDim), n * size_t(kFeatureDim));
    if (progress) progress->advance(int64_t(n));
  }
  if (progress) progress->finish();
  return features;
}

}  // namespace cae::nn
