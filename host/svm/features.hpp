// Feature vectors as the SVM stage sees them, and the per-dimension
// standardisation fitted on the training set.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cae::svm {

// `rows` vectors of `dim` floats, row-major, with one label per row. Test sets
// may leave `labels` empty.
struct FeatureSet {
  int64_t rows = 0;
  int64_t dim = 0;
  std::vector<float> values;
  std::vector<int32_t> labels;

  const float* row(int64_t i) const { return values.data() + i * dim; }
  // Throws SvmError naming `what` when the sizes disagree (or labels are
  // missing while `need_labels`).
  void check(const std::string& what, bool need_labels) const;
};

// z = (x - mean) / scale per dimension, fitted on the training set. An empty
// Standardizer is the identity. A dimension whose standard deviation is below
// kMinStd (constant on the training set) gets scale 1: it carries no
// information, and dividing by a tiny deviation would only amplify noise.
class Standardizer {
 public:
  static constexpr double kMinStd = 1e-6;

  Standardizer() = default;
  // Throws SvmError when the sizes differ or a scale is not positive and finite.
  Standardizer(std::vector<float> mean, std::vector<float> scale);

  // Population mean and standard deviation of every dimension of `train`.
  static Standardizer fit(const FeatureSet& train, int threads = 0);
  // The same over the rows `rows` of `train` only (e.g. a validation split's
  // training part, which is not copied out).
  static Standardizer fit(const FeatureSet& train, const std::vector<int64_t>& rows,
                          int threads = 0);

  bool empty() const { return mean_.empty(); }
  int64_t dim() const { return static_cast<int64_t>(mean_.size()); }
  const std::vector<float>& mean() const { return mean_; }
  const std::vector<float>& scale() const { return scale_; }

  // Standardises `count` rows of dim() floats in place (nothing when empty).
  void apply(float* rows, int64_t count) const;

 private:
  std::vector<float> mean_;
  std::vector<float> scale_;
};

// 0, 1, ..., set.rows - 1: every row of `set`.
std::vector<int64_t> all_rows(const FeatureSet& set);

// Copies rows [first, first + count) of `set` into `out`, standardised.
void copy_standardized_rows(const FeatureSet& set, const Standardizer& standardizer, int64_t first,
                            int64_t count, float* out);

}  // namespace cae::svm
