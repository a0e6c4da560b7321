// The generated 10-class set (`cae data synth`) made in memory, for a run that
// wants no files at all: 3,000 training and 600 test images from seed 1, the
// set `cae pipeline` falls back to.
#include "data/image_set_builder.hpp"
#include "data/sources.hpp"
#include "data/synthetic_dataset.hpp"

namespace cae {

DataSplits load_synthetic_data(const DataOptions& options) {
  constexpr size_t kTrain = 3000, kTest = 600;
  constexpr uint64_t kSeed = 1;
  DataSplits data;
  data.format = DataFormat::kSynthetic;
  data.location = "synthetic";
  data.train = synthetic_image_set(kTrain, kSeed, false);
  data.test = synthetic_image_set(kTest, kSeed, true);
  keep_first(data.train, options.max_train);
  keep_first(data.test, options.max_test);
  data.class_names = data.train.class_names;
  return data;
}

}  // namespace cae
