#include "features.hpp"

#include <algorithm>
#include <atomic>
#include <functional>
#include <memory>

#include "data/batcher.hpp"
#include "plugin/per_device.hpp"
#include "report/progress.hpp"

namespace cae::nn {
namespace {

std::unique_ptr<ProgressReporter> progress_for(const ImageSet& images, std::ostream* log,
                                               const std::string& label) {
  if (!log) return nullptr;
  ProgressOptions options;
  options.label = label;
  options.unit = "img";
  options.out = log;
  return std::make_unique<ProgressReporter>(int64_t(images.size()), options);
}

// Encodes images [first, first + count) into features (rows of the whole
// set), batch by batch; after_batch(n) after each.
void encode_rows(Context& context, Autoencoder& model, const ImageSet& images, size_t first,
                 size_t count, int batch_size, float* features,
                 const std::function<void(size_t)>& after_batch) {
  // No memory for images that do not exist: a batch larger than the range is the range.
  std::vector<float> host(std::min(count, size_t(batch_size)) * kImageFloats);
  Tensor input, latent;
  for (size_t start = first; start < first + count; start += size_t(batch_size)) {
    const size_t n = std::min(first + count - start, size_t(batch_size));
    std::vector<size_t> indices(n);
    for (size_t i = 0; i < n; ++i) indices[i] = start + i;
    fill_batch(images, indices, host.data());
    if (!input || input.dims()[0] != int64_t(n)) {
      input = context.alloc({int64_t(n), kImageChannels, kImageSize, kImageSize});
      latent = context.alloc({int64_t(n), kLatentChannels, kLatentSize, kLatentSize});
    }
    input.upload(host.data(), n * kImageFloats);
    model.encode(input, latent);
    latent.download(features + start * size_t(kFeatureDim), n * size_t(kFeatureDim));
    after_batch(n);
  }
}

}  // namespace

std::vector<float> extract_features(Context& context, Autoencoder& model, const ImageSet& images,
                                    int batch_size, std::ostream* log, const std::string& label) {
  std::vector<float> features(images.size() * size_t(kFeatureDim));
  auto progress = progress_for(images, log, label);
  encode_rows(context, model, images, 0, images.size(), batch_size, features.data(), [&](size_t n) {
    if (progress) progress->advance(int64_t(n));
  });
  if (progress) progress->finish();
  return features;
}

std::vector<float> extract_features(const std::vector<Context*>& contexts,
                                    const Parameters& parameters, const ImageSet& images,
                                    int batch_size, std::ostream* log, const std::string& label) {
  std::vector<float> features(images.size() * size_t(kFeatureDim));
  auto progress = progress_for(images, log, label);
  std::atomic<int64_t> done{0};
  const size_t devices = contexts.size();
  run_per_device(devices, [&](size_t d) {
    // Contiguous, nearly equal row ranges: device d gets [d*n/N, (d+1)*n/N).
    const size_t first = images.size() * d / devices;
    const size_t last = images.size() * (d + 1) / devices;
    Autoencoder model(*contexts[d], parameters);
    encode_rows(*contexts[d], model, images, first, last - first, batch_size, features.data(),
                [&](size_t n) {
                  done += int64_t(n);
                  // The reporter is not thread-safe: only the calling thread draws it.
                  if (d == 0 && progress) progress->update(done.load());
                });
  });
  if (progress) {
    progress->update(done.load());
    progress->finish();
  }
  return features;
}

}  // namespace cae::nn
