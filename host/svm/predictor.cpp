#include "svm/predictor.hpp"

#include <algorithm>
#include <functional>

#include "plugin/per_device.hpp"
#include "svm/kernel_blocks.hpp"
#include "common/parallel.hpp"
#include "svm/svm_error.hpp"
#include "svm/weighted_kernel_sums.hpp"

namespace cae::svm {

namespace {

// [pairs, sv_count]: each pair's coefficients at its support vectors' places
// (zero elsewhere), the weights of its decision value.
std::vector<float> pair_weights(const OvoModel& model) {
  std::vector<float> weights(model.pairs.size() * static_cast<size_t>(model.sv_count), 0.0f);
  for (size_t p = 0; p < model.pairs.size(); ++p) {
    const PairDecision& decision = model.pairs[p];
    float* row = weights.data() + p * static_cast<size_t>(model.sv_count);
    for (size_t s = 0; s < decision.support.size(); ++s) {
      row[decision.support[s]] = decision.coef[s];
    }
  }
  return weights;
}

}  // namespace

int32_t vote(const OvoModel& model, const float* decision_values, std::vector<int>& votes) {
  votes.assign(model.classes.size(), 0);
  for (size_t p = 0; p < model.pairs.size(); ++p) {
    const ClassPair& pair = model.pairs[p].pair;
    ++votes[static_cast<size_t>(decision_values[p] > 0 ? pair.first : pair.second)];
  }
  size_t best = 0;
  for (size_t c = 1; c < votes.size(); ++c) {
    if (votes[c] > votes[best]) best = c;
  }
  return model.classes[best];
}

namespace {

// Rows [begin, end) of `features` on one context: their decision values,
// computed on the device against every support vector, and labels into
// `result`. progress
// (when given) gets rows done within the range.
void predict_rows(Context& context, const OvoModel& model, const FeatureSet& features,
                  const PredictOptions& options, int64_t begin, int64_t end, Prediction& result,
                  const std::function<void(int64_t done)>& progress) {
  const size_t pair_count = model.pairs.size();
  const int threads = resolve_thread_count(options.threads);
  const int64_t sv_tile = options.sv_tile_rows ? options.sv_tile_rows : kDefaultTileRows;
  // The device holds K [tile rows, support tile] per step.
  const int64_t tile_rows =
      options.tile_rows
          ? options.tile_rows
          : std::clamp<int64_t>(static_cast<int64_t>(kPredictTileBytes / sizeof(float)) /
                                    std::min(sv_tile, model.sv_count),
                                1, kDefaultTileRows);

  RowStaging staging(context);
  const DeviceRows support(
      context, model.sv_count, model.dim, sv_tile,
      [&](int64_t first, int64_t n, float* out) {
        std::copy(model.sv_row(first), model.sv_row(first + n), out);
      },
      &staging);
  const std::vector<float> weights = pair_weights(model);
  WeightedKernelSums decision_sums(context, support, weights.data(),
                                   static_cast<int64_t>(pair_count), {model.kernel, model.gamma});
  std::vector<double> sums;
  std::vector<float> decisions;
  for (int64_t first = begin; first < end; first += tile_rows) {
    const int64_t n = std::min(tile_rows, end - first);
    const DeviceRows tile(
        context, n, model.dim, n,
        [&](int64_t at, int64_t count, float* out) {
          copy_standardized_rows(features, model.standardizer, first + at, count, out);
        },
        &staging);
    sums.assign(pair_count * static_cast<size_t>(n), 0.0);  // [pairs, n]
    decision_sums.add_to(tile, sums.data());

    float* out = nullptr;  // this tile's decision values, [n, pairs]
    if (options.keep_decision_values) {
      out = result.decision_values.data() + static_cast<size_t>(first) * pair_count;
    } else {
      decisions.resize(static_cast<size_t>(n) * pair_count);
      out = decisions.data();
    }
    parallel_chunks(threads, n, [&](int64_t chunk_begin, int64_t chunk_end) {
      std::vector<int> votes;
      for (int64_t i = chunk_begin; i < chunk_end; ++i) {
        float* row = out + static_cast<size_t>(i) * pair_count;
        for (size_t p = 0; p < pair_count; ++p) {
          row[p] = static_cast<float>(sums[p * static_cast<size_t>(n) + static_cast<size_t>(i)] -
                                      model.pairs[p].rho);
        }
        result.labels[static_cast<size_t>(first + i)] = vote(model, row, votes);
      }
    });
    if (progress) progress(first + n - begin);
  }
}

}  // namespace

Prediction predict(Context& context, const OvoModel& model, const FeatureSet& features,
                   const PredictOptions& options) {
  return predict(std::vector<Context*>{&context}, model, features, options);
}

Prediction predict(const std::vector<Context*>& contexts, const OvoModel& model,
                   const FeatureSet& features, const PredictOptions& options) {
  features.check("SVM prediction input", false);
  if (features.dim != model.dim) {
    throw SvmError("SVM prediction input has dimension " + std::to_string(features.dim) +
                   " but the model expects " + std::to_string(model.dim));
  }
  Prediction result;
  result.labels.resize(static_cast<size_t>(features.rows));
  if (options.keep_decision_values) {
    result.decision_values.resize(static_cast<size_t>(features.rows) * model.pairs.size());
  }
  if (features.rows == 0) return result;
  if (model.sv_count == 0) throw SvmError("the SVM model has no support vectors");

  // Contiguous row ranges, one per device; each writes only its own rows.
  const int64_t devices = static_cast<int64_t>(contexts.size());
  run_per_device(contexts.size(), [&](size_t d) {
    const int64_t begin = features.rows * int64_t(d) / devices;
    const int64_t end = features.rows * int64_t(d + 1) / devices;
    std::function<void(int64_t)> progress;
    // Called on the calling thread only: device 0's rows stand for the whole.
    if (d == 0 && options.progress) {
      progress = [&](int64_t done) {
        options.progress(std::min(features.rows, done * devices), features.rows);
      };
    }
    predict_rows(*contexts[d], model, features, options, begin, end, result, progress);
  });
  if (devices > 1 && options.progress) options.progress(features.rows, features.rows);
  return result;
}

}  // namespace cae::svm
