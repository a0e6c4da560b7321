// One-vs-one prediction: the backend computes K(test rows, support vectors)
// tile by tile and multiplies it by the pairs' coefficients
// (svm/weighted_kernel_sums.hpp); the host adds the tiles' products,
// subtracts each pair's rho and votes as libsvm's svm_predict does.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "plugin/context.hpp"
#include "svm/features.hpp"
#include "svm/ovo_model.hpp"

namespace cae::svm {

struct PredictOptions {
  int threads = 0;           // host threads for the voting; 0: hardware threads
  int64_t tile_rows = 0;     // test rows per kernel tile; 0: as many as fit kPredictTileBytes
  int64_t sv_tile_rows = 0;  // support vectors per device tile; 0: kDefaultTileRows
  bool keep_decision_values = false;
  // Called on the calling thread after each tile (rows done of total).
  std::function<void(int64_t done, int64_t total)> progress;
};

struct Prediction {
  std::vector<int32_t> labels;  // one per row
  // With keep_decision_values: [rows, pairs], pairs in one-vs-one order.
  std::vector<float> decision_values;
};

// Device bytes one tile of kernel values may take when tile_rows is 0.
constexpr uint64_t kPredictTileBytes = uint64_t{256} << 20;

// `features` are raw (the model's standardizer is applied here). Throws
// SvmError when their dimension is not the model's, or BackendError.
Prediction predict(Context& context, const OvoModel& model, const FeatureSet& features,
                   const PredictOptions& options = {});
// The same over several contexts of one backend (one per device): the rows
// are split into one contiguous range per device, each computing its kernel
// rows against all support vectors on its own thread. Same labels as one device.
Prediction predict(const std::vector<Context*>& contexts, const OvoModel& model,
                   const FeatureSet& features, const PredictOptions& options = {});

// Votes like libsvm: dec > 0 votes for pair.first, else pair.second; the
// class with most votes wins, the lowest class index on ties.
int32_t vote(const OvoModel& model, const float* decision_values, std::vector<int>& votes);

}  // namespace cae::svm
