// Encoder features: every image's feature vector as a row, made by a feature
// recipe (nn/feature_recipe.hpp; "latent" = the seed's 8x8x128 latent).
#pragma once

#include <functional>
#include <iosfwd>
#include <memory>
#include <vector>

#include "common/row_range.hpp"
#include "data/image_set.hpp"
#include "nn/autoencoder.hpp"
#include "nn/feature_recipe.hpp"
#include "plugin/extraction_streams.hpp"
#include "plugin/host_buffer.hpp"
#include "plugin/process_group.hpp"
#include "plugin/row_gather.hpp"

namespace cae::nn {

// Where a tap whose max pooling commutes with its encoder (max pooling of a
// triangle code or a polarity split, nn/feature_encoders.hpp) is encoded:
// Auto lets the backend decide by where its memory is (features.cpp says
// why); Host and Device force one place, for tests that compare them.
enum class EncoderPlacement { Auto, Host, Device };

// Row-major [images.size(), recipe.dim()]: the recipe's taps in order, each in
// CHW order. Progress goes to `log` when given.
std::vector<float> extract_features(Context& context, Autoencoder& model,
                                    const FeatureRecipe& recipe, const ImageSet& images,
                                    int batch_size, std::ostream* log, const std::string& label,
                                    EncoderPlacement placement = EncoderPlacement::Auto);

// The same over several contexts of one backend (one per device), each with
// streams_per_device - 1 more contexts on its device (0: auto, see
// plugin/extraction_streams.hpp): the images are split by rows into one
// contiguous range per context, each encoded by its own copy of the model on
// its own thread. With `ranks` (a group of processes, one device each), each
// rank encodes its share of the rows (plugin/row_gather.hpp's rank_rows) and
// rank 0 (or, with RowsTo::EveryRank, every rank) receives them all; the
// other ranks get an empty vector.
std::vector<float> extract_features(const std::vector<Context*>& devices,
                                    const Parameters& parameters, const FeatureRecipe& recipe,
                                    const ImageSet& images, int batch_size, std::ostream* log,
                                    const std::string& label, int streams_per_device = 0,
                                    ProcessGroup* ranks = nullptr,
                                    RowsTo rows_to = RowsTo::Rank0);

// One copy of the model per context, for encode_in_parallel: `cae extract`
// and `cae bench` build them the same way.
class ModelCopies {
 public:
  ModelCopies(const std::vector<Context*>& contexts, const Parameters& parameters);
  // models()[i] lives on contexts[i].
  const std::vector<Autoencoder*>& models() const { return models_; }

 private:
  std::vector<std::unique_ptr<Autoencoder>> owned_;
  std::vector<Autoencoder*> models_;
};

// What an extraction runs on, made once for several sets of images (the
// pipeline's training and test images): the extra contexts per device and a
// copy of the model on each.
class FeatureExtractor {
 public:
  // streams_per_device as for extract_features (0: auto). `parameters` must
  // outlive the extractor.
  FeatureExtractor(const std::vector<Context*>& devices, const Parameters& parameters,
                   int streams_per_device = 0);

  // extract_features over these contexts and copies. `storage`, when given
  // and of the rows' size, is filled and returned instead of new memory: a
  // caller can have it allocated beforehand, off the critical path (making
  // 1.6 GB of zeroed pages took 0.7 s of the pipeline's feature stage).
  std::vector<float> extract(const FeatureRecipe& recipe, const ImageSet& images, int batch_size,
                             std::ostream* log, const std::string& label,
                             ProcessGroup* ranks = nullptr, RowsTo rows_to = RowsTo::Rank0,
                             std::vector<float> storage = {}) const;

 private:
  std::vector<float> extract_rows(const FeatureRecipe& recipe, const ImageSet& images,
                                  RowRange range, int batch_size, std::ostream* log,
                                  const std::string& label, std::vector<float> storage) const;

  std::vector<Context*> devices_;
  const Parameters& parameters_;
  ExtractionContexts contexts_;
  ModelCopies copies_;
  // Where the input transform's patch-whitening convolution runs is said
  // once per extractor, with its first set's log.
  mutable bool placement_said_ = false;
};

// The encoding both `cae extract` and `cae bench` run, without the setup:
// contexts[i] encodes, with models[i] and on a thread of its own, the
// contiguous rows [i*n/N, (i+1)*n/N) of the n images of `range` into
// `features` (row-major [range.size(), recipe.dim()]). Images are uploaded from and taps
// downloaded into host memory of the given kind. after_batch(i, n) runs on
// worker i's thread after each of its batches.
void encode_in_parallel(const std::vector<Context*>& contexts,
                        const std::vector<Autoencoder*>& models, const FeatureRecipe& recipe,
                        const ImageSet& images, RowRange range, int batch_size,
                        HostMemory host_memory, float* features,
                        const std::function<void(size_t, size_t)>& after_batch);

}  // namespace cae::nn
