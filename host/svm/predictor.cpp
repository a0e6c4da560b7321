#include "svm/predictor.hpp"

#include <algorithm>
#include <functional>

#include "plugin/per_device.hpp"
#include "svm/kernel_blocks.hpp"
#include "common/parallel.hpp"
#include "svm/svm_error.hpp"

namespace cae::svm {

namespace {

// Decision values of `rows` test rows from their kernel rows k [rows, sv_count].
void decide(const OvoModel& model, const float* k, int64_t rows, float* out) {
  const size_t pair_count = model.pairs.size();
  for (int64_t i = 0; i < rows; ++i) {
    const float* k_row = k + i * model.sv_count;
    for (size_t p = 0; p < pair_count; ++p) {
      const PairDecision& decision = model.pairs[p];
      double sum = 0.0;
      for (size_t s = 0; s < decision.support.size(); ++s) {
        sum += static_cast<double>(decision.coef[s]) * k_row[decision.support[s]];
      }
      out[static_cast<size_t>(i) * pair_count + p] = static_cast<float>(sum - decision.rho);
    }
  }
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

// Rows [begin, end) of `features` on one context: their kernel rows against
// every support vector, decision values and labels into `result`. progress
// (when given) gets rows done within the range.
void predict_rows(Context& context, const OvoModel& model, const FeatureSet& features,
                  const PredictOptions& options, int64_t begin, int64_t end, Prediction& result,
                  const std::function<void(int64_t done)>& progress) {
  const size_t pair_count = model.pairs.size();
  const int threads = resolve_thread_count(options.threads);
  const int64_t sv_tile = options.sv_tile_rows ? options.sv_tile_rows : kDefaultTileRows;
  const int64_t tile_rows =
      options.tile_rows
          ? options.tile_rows
          : std::clamp<int64_t>(
                static_cast<int64_t>(kPredictTileBytes / sizeof(float)) / model.sv_count, 1,
                kDefaultTileRows);

  const DeviceRows support(context, model.sv_count, model.dim, sv_tile,
                           [&](int64_t first, int64_t n, float* out) {
                             std::copy(model.sv_row(first), model.sv_row(first + n), out);
                           });
  KernelBlocks blocks(context, {model.kernel, model.gamma});
  std::vector<float> k;
  std::vector<float> decisions;
  for (int64_t first = begin; first < end; first += tile_rows) {
    const int64_t n = std::min(tile_rows, end - first);
    const DeviceRows tile(context, n, model.dim, n, [&](int64_t at, int64_t count, float* out) {
      copy_standardized_rows(features, model.standardizer, first + at, count, out);
    });
    k.resize(static_cast<size_t>(n * model.sv_count));
    blocks.compute(tile, support, k.data());

    float* out = nullptr;  // this tile's decision values, [n, pairs]
    if (options.keep_decision_values) {
      out = result.decision_values.data() + static_cast<size_t>(first) * pair_count;
    } else {
      decisions.resize(static_cast<size_t>(n) * pair_count);
      out = decisions.data();
    }
    parallel_chunks(threads, n, [&](int64_t chunk_begin, int64_t chunk_end) {
      decide(model, k.data() + chunk_begin * model.sv_count, chunk_end - chunk_begin,
             out + static_cast<size_t>(chunk_begin) * pair_count);
      std::vector<int> votes;
      for (int64_t i = chunk_begin; i < chunk_end; ++i) {
        result.labels[static_cast<size_t>(first + i)] =
            vote(model, out + static_cast<size_t>(i) * pair_count, votes);
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
