#include "features.hpp"

#include <algorithm>
#include <atomic>
#include <functional>
#include <memory>

#include "data/augment.hpp"
#include "common/parallel.hpp"
#include "data/batcher.hpp"
#include "nn/batch_transform.hpp"
#include "nn/feature_encoders.hpp"
#include "plugin/extraction_streams.hpp"
#include "plugin/host_buffer.hpp"
#include "plugin/per_device.hpp"
#include "plugin/row_gather.hpp"
#include "report/progress.hpp"

namespace cae::nn {
namespace {

std::unique_ptr<ProgressReporter> progress_for(size_t images, std::ostream* log,
                                               const std::string& label) {
  if (!log) return nullptr;
  ProgressOptions options;
  options.label = label;
  options.unit = "img";
  options.out = log;
  return std::make_unique<ProgressReporter>(int64_t(images), options);
}

// Whether a backend encodes the taps whose pooling commutes with their
// encoder (feature_encoders.hpp): one across a bus (it offers page-locked
// host memory) does, since downloading a whole map costs more than the 1x1
// convolution that spares it (a 256-channel 32x32 map is 1 MiB per image,
// its pooled cells 16 KiB); a backend in host memory already has the maps
// where the host encodes them, for less than the convolution costs.
bool encodes_on_device(const Context& context, EncoderPlacement placement) {
  switch (placement) {
    case EncoderPlacement::Host:
      return false;
    case EncoderPlacement::Device:
      return true;
    case EncoderPlacement::Auto:
      break;
  }
  return context.has_host_memory();
}

// Whether a sum-pooled tap is encoded and summed on the device: when its
// cells are whole blocks of 2x2 halvings (a 32x32 map into 2x2 or 4x4 cells),
// the encoded map (ReLU of the encoder's linear part, a 1x1 convolution) is
// summed block by block with upsample2x_backward, whose gradient is exactly
// the sum of each 2x2 block; the host sums what the halvings leave (a 96x96
// map's 6x6 blocks into 2x2 cells). Windows that overlap (32 into 3 cells)
// stay on the host, from the map as it is.
bool sums_by_halving(const FeatureTap& tap) {
  return tap.coding.pooling == CellPooling::Sum && tap.max_pool_steps() > 0;
}

// One tap's work on the device: the encoder's linear part (when the device
// encodes it), then the chain of 2x2 max-pools, or for a sum-pooled tap the
// whole encoder and the chain of 2x2 sums.
struct DeviceTap {
  FeatureTap tap;
  bool linear_on_device = false;  // then the host only pools the rest and finishes
  bool sums_on_device = false;    // encoded and 2x2-summed: the host sums the rest
  int channels = 0;               // of the pooled map the host downloads
  int steps = 0;                  // 2x2 max-pools (or sums) on the device
  // The linear part's output, made by the backend's channel_code (ABI 1.13)
  // where it has one, else by a 1x1 convolution with fixed weights.
  Tensor mapped;
  bool by_channel_code = false;
  float code_bias = 0;
  Tensor weights, bias;
  std::vector<Tensor> chain;

  int size() const { return tap.size >> steps; }
  size_t map_floats() const { return size_t(channels) * size_t(size()) * size_t(size()); }
  // What the host applies to the downloaded map before pooling what is left:
  // nothing when the device applied the encoder's linear part; a sum over
  // each cell's blocks when the device encoded and summed.
  TapCoding host_coding() const {
    if (sums_on_device) {
      TapCoding sum;
      if (size() != tap.cells()) sum.pooling = CellPooling::Sum;
      return sum;
    }
    return linear_on_device ? TapCoding{} : tap.coding;
  }
  // Whether the downloaded map still needs the host (a pool or an encoder).
  bool host_work() const { return size() != tap.cells() || !host_coding().plain(); }
};

// The device buffers of one batch size for a recipe: per tap, its device
// work (DeviceTap). Everything image-sized stays on the device; only the
// pooled taps are downloaded: a recipe of one tap the device pools all the
// way straight into the feature rows, others through page-locked memory
// when the backend has it, finished by the host where needed.
class TapPooling {
 public:
  // host_threads: how many threads encode the downloaded maps of one batch.
  TapPooling(Context& context, const Network& network, const FeatureRecipe& recipe, int64_t batch,
             HostMemory host_memory, int host_threads, EncoderPlacement placement)
      : dim_(size_t(recipe.dim(network))),
        image_floats_(size_t(network.image_floats())),
        host_threads_(std::max(1, host_threads)),
        input_(context.alloc(
            {batch, network.image_channels(), network.image_side(), network.image_side()})) {
    const bool device_encodes = encodes_on_device(context, placement);
    for (const FeatureTap& tap : recipe.taps(network)) {
      DeviceTap& stage = taps_.emplace_back();
      stage.tap = tap;
      stage.channels = tap.channels;
      stage.linear_on_device = device_encodes && pools_before_finishing(tap.coding);
      stage.sums_on_device = device_encodes && sums_by_halving(tap);
      const bool encoder_on_device = stage.sums_on_device && tap.coding.encoder != TapEncoder::Identity;
      if (stage.linear_on_device || encoder_on_device) {
        stage.channels = tap.coding.encoded_channels(tap.channels);
        // Summed taps are encoded whole on the device (ReLU of the linear
        // part plus the threshold); max-pooled ones are finished by the host.
        const std::vector<float> bias = encoder_on_device
                                            ? encoder_bias(tap.coding, tap.channels)
                                            : std::vector<float>(size_t(stage.channels), 0.0f);
        // The channel code reads each map twice and writes it once; the
        // convolution multiplies every channel by every other, which for a
        // dense learner's thousands of channels costs thousands of times as much.
        stage.by_channel_code = context.has_channel_code();
        if (stage.by_channel_code) {
          stage.code_bias = bias.front();
        } else {
          stage.weights = context.alloc({stage.channels, tap.channels, 1, 1});
          stage.weights.upload(encoder_linear_part(tap.coding, tap.channels));
          stage.bias = context.alloc({stage.channels});
          stage.bias.upload(bias);
        }
        stage.mapped = context.alloc({batch, stage.channels, tap.size, tap.size});
      }
      // Encoded on the host from the whole map unless the pools commute or
      // the device sums.
      stage.steps = tap.coding.plain() || stage.linear_on_device || stage.sums_on_device
                        ? tap.max_pool_steps()
                        : 0;
      int size = tap.size;
      for (int step = 0; step < stage.steps; ++step) {
        size /= 2;
        stage.chain.push_back(context.alloc({batch, stage.channels, size, size}));
      }
    }
    direct_rows_ = taps_.size() == 1 && !taps_[0].host_work();
    // Taps that share a row are downloaded here, then spread over the rows.
    if (!direct_rows_) {
      size_t widest_tap = 0, widest_plane = 0;
      for (const DeviceTap& stage : taps_) {
        widest_tap = std::max(widest_tap, stage.map_floats());
        widest_plane = std::max(widest_plane, size_t(stage.size()) * size_t(stage.size()));
      }
      plane_floats_ = 2 * widest_plane;
      staging_ = HostBuffer(context, size_t(batch) * widest_tap, host_memory);
    }
  }

  int64_t batch() const { return input_.dims()[0]; }

  // Encodes the batch's host images and writes its rows of recipe.dim() floats.
  void encode(Context& context, Autoencoder& model, const float* images, float* rows) {
    const size_t n = size_t(batch());
    input_.upload(images, n * image_floats_);
    model.encode_maps(input_);
    size_t offset = 0;
    for (DeviceTap& stage : taps_) {
      const FeatureTap& tap = stage.tap;
      const Tensor* pooled = &model.encoder_map(tap.map, batch());
      if (stage.by_channel_code) {
        context.channel_code(*pooled, stage.mapped,
                             tap.coding.encoder == TapEncoder::SoftSplit ? CAE_CHANNEL_CODE_SPLIT
                                                                         : CAE_CHANNEL_CODE_CENTRED,
                             stage.code_bias, stage.sums_on_device);
        pooled = &stage.mapped;
      } else if (stage.weights) {
        context.conv2d_forward(*pooled, stage.weights, stage.bias, stage.mapped,
                               stage.sums_on_device);
        pooled = &stage.mapped;
      }
      for (Tensor& next : stage.chain) {
        if (stage.sums_on_device) {
          context.upsample2x_backward(*pooled, next);
        } else {
          context.maxpool2x2_forward(*pooled, next);
        }
        pooled = &next;
      }
      if (direct_rows_) {
        pooled->download(rows, n * dim_);
        break;
      }
      const size_t map_floats = stage.map_floats();
      const size_t tap_dim = size_t(tap.dim());
      pooled->download(staging_.data(), n * map_floats);
      // An encoded map is the host's largest work here (a 256-channel 32x32
      // map per image): the batch's images are split over threads.
      const int threads = stage.host_work() ? host_threads_ : 1;
      parallel_chunks(threads, int64_t(n), [&](int64_t begin, int64_t end) {
        std::vector<float> scratch(plane_floats_);  // a few KiB per thread and batch
        for (size_t i = size_t(begin); i < size_t(end); ++i) {
          const float* map = staging_.data() + i * map_floats;
          float* row = rows + i * dim_ + offset;
          const TapCoding coding = stage.host_coding();
          if (stage.size() != tap.cells() || !coding.plain()) {
            encode_and_pool(map, stage.channels, stage.size(), coding, tap.cells(), row,
                            scratch.data());
          } else {
            std::copy_n(map, tap_dim, row);
          }
          // After the device's linear part and the max over each cell, the
          // encoder's last part.
          if (stage.linear_on_device) finish_encoded(row, tap_dim, tap.coding);
        }
      });
      offset += tap_dim;
    }
  }

 private:
  const size_t dim_;
  // One tap fills whole rows (the seed's latent): it is downloaded straight
  // into them, without a second copy through the staging buffer.
  bool direct_rows_ = false;
  const size_t image_floats_;
  const int host_threads_;
  Tensor input_;
  std::vector<DeviceTap> taps_;
  HostBuffer staging_;
  size_t plane_floats_ = 0;  // encode_and_pool's scratch per thread
};

// Where `transform`'s patch-whitening convolution runs, in one line of
// `log` (nothing for a transform without one): the extraction convolves on
// the host where the backend refuses it, never silently.
void say_placement(const BatchTransform& transform, std::ostream& log) {
  if (!transform.placement().empty()) log << "input transform: " << transform.placement() << "\n";
}

// Floats of a host pass over features or images below which a batch stays on
// the worker's thread: starting threads would cost more than they save.
constexpr size_t kFloatsPerThread = size_t(1) << 18;

int threads_for(size_t floats, int host_threads) {
  return int(std::max<size_t>(1, std::min(size_t(host_threads), floats / kFloatsPerThread)));
}

// The rows' last steps in one pass over them, on up to `threads` threads:
// the average with the mirror image's rows (when `mirrored`), the soft
// threshold, the signed square root, each value as the separate passes
// compute it (soft_threshold, signed_sqrt), so the features are the same
// bits; one pass reads and writes the rows once instead of up to three
// times, on the worker's share of the host's cores instead of one.
void finish_rows(float* rows, const float* mirrored, size_t count, const FeatureRecipe& recipe,
                 int host_threads) {
  const float alpha = float(recipe.threshold);
  const bool threshold = recipe.threshold > 0.0, root = recipe.signed_sqrt;
  if (!mirrored && !threshold && !root) return;
  parallel_chunks(threads_for(count, host_threads), int64_t(count),
                  [&](int64_t begin, int64_t end) {
                    for (int64_t i = begin; i < end; ++i) {
                      float v = rows[i];
                      if (mirrored) v = 0.5f * (v + mirrored[i]);
                      if (threshold) v = soft_thresholded(v, alpha);
                      if (root) v = signed_root(v);
                      rows[i] = v;
                    }
                  });
}

// Encodes images [first, first + count) into features (rows of the whole
// set), batch by batch; after_batch(n) after each.
void encode_rows(Context& context, Autoencoder& model, const FeatureRecipe& recipe,
                 const ImageSet& images, size_t first, size_t count, int batch_size,
                 HostMemory host_memory, int host_threads, EncoderPlacement placement,
                 BatchTransform& transform, float* features, size_t row_base,
                 const std::function<void(size_t)>& after_batch) {
  const Network& network = model.network();
  network.require_images(images.channels, images.side, "the data");
  const size_t dim = size_t(recipe.dim(network));
  const size_t image_floats = size_t(network.image_floats());
  // No memory for images that do not exist: a batch larger than the range is the range.
  const size_t capacity = std::min(count, size_t(batch_size));
  // Uploaded every batch: page-locked when the backend offers it (ABI 1.3).
  HostBuffer host(context, capacity * image_floats, host_memory);
  HostBuffer mirrored(context, recipe.flip_average ? host.size() : 0, host_memory);
  std::vector<float> mirrored_rows(recipe.flip_average ? capacity * dim : 0);
  std::unique_ptr<TapPooling> pooling;
  for (size_t start = first; start < first + count; start += size_t(batch_size)) {
    const size_t n = std::min(first + count - start, size_t(batch_size));
    std::vector<size_t> indices(n);
    for (size_t i = 0; i < n; ++i) indices[i] = start + i;
    fill_batch(images, indices, host.data());
    if (!pooling || pooling->batch() != int64_t(n)) {
      pooling = std::make_unique<TapPooling>(context, network, recipe, int64_t(n), host_memory,
                                             host_threads, placement);
    }
    // The mirror image is made before the input transform, as in training:
    // the transform is the network's first step.
    if (recipe.flip_average) {
      parallel_chunks(
          threads_for(n * image_floats, host_threads), int64_t(n), [&](int64_t begin, int64_t end) {
            mirror_images(host.data() + size_t(begin) * image_floats,
                          mirrored.data() + size_t(begin) * image_floats, size_t(end - begin),
                          network.image_channels(), network.image_side());
          });
      transform.apply(mirrored.data(), n);
    }
    transform.apply(host.data(), n);
    float* rows = features + (start - row_base) * dim;
    pooling->encode(context, model, host.data(), rows);
    if (recipe.flip_average) pooling->encode(context, model, mirrored.data(), mirrored_rows.data());
    finish_rows(rows, recipe.flip_average ? mirrored_rows.data() : nullptr, n * dim, recipe,
                host_threads);
    after_batch(n);
  }
}

}  // namespace

std::vector<float> extract_features(Context& context, Autoencoder& model,
                                    const FeatureRecipe& recipe, const ImageSet& images,
                                    int batch_size, std::ostream* log, const std::string& label,
                                    EncoderPlacement placement) {
  std::vector<float> features(images.size() * size_t(recipe.dim(model.network())));
  // On this context, as training applied it (its convolution on the
  // backend where that runs it: nn/batch_transform.hpp).
  BatchTransform transform(model.input_transform(), &context);
  if (log) say_placement(transform, *log);
  auto progress = progress_for(images.size(), log, label);
  encode_rows(context, model, recipe, images, 0, images.size(), batch_size,
              HostMemory::kPinnedWhenOffered, resolve_thread_count(0), placement, transform,
              features.data(), 0,
              [&](size_t n) {
                if (progress) progress->advance(int64_t(n));
              });
  if (progress) progress->finish();
  return features;
}

FeatureExtractor::FeatureExtractor(const std::vector<Context*>& devices,
                                   const Parameters& parameters, int streams_per_device)
    : devices_(devices),
      parameters_(parameters),
      // Several contexts per device overlap one's copies with another's compute.
      contexts_(devices, devices.empty() ? 1 : extraction_streams(*devices[0], streams_per_device)),
      copies_(contexts_.all(), parameters) {}

// The images of `range` only: row i is image range.begin + i.
std::vector<float> FeatureExtractor::extract_rows(const FeatureRecipe& recipe,
                                                  const ImageSet& images, RowRange range,
                                                  int batch_size, std::ostream* log,
                                                  const std::string& label,
                                                  std::vector<float> storage) const {
  const size_t count = range.size();
  const size_t floats = count * size_t(recipe.dim(parameters_.network));
  std::vector<float> features = std::move(storage);
  if (features.size() != floats) features = std::vector<float>(floats);
  if (log && !placement_said_ && !contexts_.all().empty()) {
    // Every context decides alike (they are one backend's): the first speaks for them.
    say_placement(BatchTransform(parameters_.input.get(), contexts_.all().front()), *log);
    placement_said_ = true;
  }
  auto progress = progress_for(count, log, label);
  std::atomic<int64_t> done{0};
  encode_in_parallel(contexts_.all(), copies_.models(), recipe, images, range, batch_size,
                     HostMemory::kPinnedWhenOffered, features.data(), [&](size_t worker, size_t n) {
                       done += int64_t(n);
                       // The reporter is not thread-safe: only the calling thread draws it.
                       if (worker == 0 && progress) progress->update(done.load());
                     });
  if (progress) {
    progress->update(done.load());
    progress->finish();
  }
  return features;
}

std::vector<float> FeatureExtractor::extract(const FeatureRecipe& recipe, const ImageSet& images,
                                             int batch_size, std::ostream* log,
                                             const std::string& label, ProcessGroup* ranks,
                                             RowsTo rows_to, std::vector<float> storage) const {
  if (!ranks) {
    return extract_rows(recipe, images, {0, images.size()}, batch_size, log, label,
                        std::move(storage));
  }
  const std::vector<float> share =
      extract_rows(recipe, images, rank_rows(images.size(), ranks->rank(), ranks->world()),
                   batch_size, log, label, {});
  return gather_rows(*ranks, *devices_.front(), share, images.size(),
                     size_t(recipe.dim(parameters_.network)), rows_to);
}

std::vector<float> extract_features(const std::vector<Context*>& devices,
                                    const Parameters& parameters, const FeatureRecipe& recipe,
                                    const ImageSet& images, int batch_size, std::ostream* log,
                                    const std::string& label, int streams_per_device,
                                    ProcessGroup* ranks, RowsTo rows_to) {
  return FeatureExtractor(devices, parameters, streams_per_device)
      .extract(recipe, images, batch_size, log, label, ranks, rows_to);
}

ModelCopies::ModelCopies(const std::vector<Context*>& contexts, const Parameters& parameters) {
  for (Context* context : contexts) {
    owned_.push_back(std::make_unique<Autoencoder>(*context, parameters));
    models_.push_back(owned_.back().get());
  }
}

void encode_in_parallel(const std::vector<Context*>& contexts,
                        const std::vector<Autoencoder*>& models, const FeatureRecipe& recipe,
                        const ImageSet& images, RowRange range, int batch_size,
                        HostMemory host_memory, float* features,
                        const std::function<void(size_t, size_t)>& after_batch) {
  const size_t workers = contexts.size();
  const size_t count = range.size();
  run_per_device(workers, [&](size_t d) {
    // Contiguous, nearly equal row ranges: context d gets [d*n/N, (d+1)*n/N) of the range.
    const size_t first = range.begin + count * d / workers;
    const size_t last = range.begin + count * (d + 1) / workers;
    // The host's cores shared by the workers, for encoded maps.
    const int host_threads = std::max(1, resolve_thread_count(0) / int(workers));
    // On this worker's context, as training applied it.
    BatchTransform transform(models[d]->input_transform(), contexts[d]);
    encode_rows(*contexts[d], *models[d], recipe, images, first, last - first, batch_size,
                host_memory, host_threads, EncoderPlacement::Auto, transform, features,
                range.begin, [&](size_t n) { after_batch(d, n); });
  });
}

}  // namespace cae::nn
