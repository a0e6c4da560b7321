#include "data/input_transform.hpp"

#include <cblas.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include "common/parallel.hpp"
#include "data/batcher.hpp"
#include "data/covariance_sums.hpp"
#include "data/patch_whitening.hpp"
#include "data/symmetric_eigen.hpp"

namespace cae {
namespace {

constexpr size_t kLearnBatch = 256;
constexpr char kMeanTensor[] = "input.mean";
constexpr char kMatrixTensor[] = "input.whitening";
constexpr char kInverseTensor[] = "input.unwhitening";

void require_epsilon(double epsilon, const std::string& text) {
  if (!(epsilon >= 0.0 && epsilon <= kMaxWhiteningEpsilon)) {
    throw std::invalid_argument("--whiten '" + text + "': EPS must be a finite number from 0 to " +
                                std::to_string(int(kMaxWhiteningEpsilon)));
  }
}

// The shortest text that reads back as the same double ("0.1", not
// "0.10000000000000001").
std::string number_text(double value) {
  char text[32];
  for (int digits = 6; digits <= 17; ++digits) {
    std::snprintf(text, sizeof text, "%.*g", digits, value);
    if (std::strtod(text, nullptr) == value) break;
  }
  return text;
}

// "patch", "patch5": sets the patch size, or throws naming the value.
void parse_patch_size(const std::string& kind, const std::string& text, InputTransformSpec& spec) {
  const std::string digits = kind.substr(5);
  if (digits.empty()) return;
  const bool numeric = digits.size() <= 2 && std::all_of(digits.begin(), digits.end(), [](char c) {
    return c >= '0' && c <= '9';
  });
  const int size = numeric ? std::stoi(digits) : 0;
  if (!numeric || size < 1 || size > kMaxWhiteningPatch || size % 2 == 0) {
    throw std::invalid_argument("--whiten '" + text + "': the patch size '" + digits +
                                "' is not an odd number from 1 to " +
                                std::to_string(kMaxWhiteningPatch));
  }
  spec.whitening_patch = size;
}

}  // namespace

InputTransformSpec parse_whitening(const std::string& text) {
  InputTransformSpec spec;
  const size_t colon = text.find(':');
  const std::string kind = text.substr(0, colon);
  if (kind == "zca") {
    spec.whitening = Whitening::Zca;
  } else if (kind == "pca") {
    spec.whitening = Whitening::Pca;
  } else if (kind.rfind("patch", 0) == 0) {
    spec.whitening = Whitening::Patch;
    parse_patch_size(kind, text, spec);
  } else if (kind == "none" && colon == std::string::npos) {
    return spec;
  } else {
    throw std::invalid_argument("--whiten '" + text +
                                "' is not none, zca[:EPS], pca[:EPS] or patch[S][:EPS]");
  }
  if (colon != std::string::npos) {
    const std::string value = text.substr(colon + 1);
    char* end = nullptr;
    const double epsilon = value.empty() ? NAN : std::strtod(value.c_str(), &end);
    if (value.empty() || *end != '\0') {
      throw std::invalid_argument("--whiten '" + text + "': EPS '" + value + "' is not a number");
    }
    require_epsilon(epsilon, text);
    spec.whitening_epsilon = epsilon;
  }
  // Each patch's mean is removed, so the patches' covariance is singular:
  // only EPS > 0 makes their whitening defined.
  if (spec.whitening == Whitening::Patch && !(spec.whitening_epsilon > 0)) {
    throw std::invalid_argument("--whiten '" + text +
                                "': patch whitening needs EPS > 0 (each patch's mean is removed, "
                                "so their covariance is singular), e.g. patch" +
                                std::to_string(spec.whitening_patch) + ":0.1");
  }
  return spec;
}

std::string whitening_name(const InputTransformSpec& spec) {
  switch (spec.whitening) {
    case Whitening::None: return "none";
    case Whitening::Zca: return "zca:" + number_text(spec.whitening_epsilon);
    case Whitening::Pca: return "pca:" + number_text(spec.whitening_epsilon);
    case Whitening::Patch:
      return "patch" + std::to_string(spec.whitening_patch) + ":" + number_text(spec.whitening_epsilon);
  }
  return "none";
}

void require_whitening_fits(const InputTransformSpec& spec, int side) {
  if (spec.whitening != Whitening::Patch) return;
  const std::string misfit = patch_misfit(spec.whitening_patch, side);
  if (!misfit.empty()) throw std::invalid_argument(misfit);
}

std::string describe_input_transform(const InputTransformSpec& spec) {
  if (!spec.active()) return "none";
  std::string text = spec.contrast_normalize ? "contrast-normalized" : "";
  if (spec.whitening != Whitening::None) {
    text += (text.empty() ? "" : ", ") + whitening_name(spec) + " whitening";
  }
  return text;
}

void contrast_normalize(float* images, size_t count, size_t dim, std::vector<ImageScale>* scales) {
  if (scales) scales->assign(count, ImageScale{});
  for (size_t i = 0; i < count; ++i) {
    float* x = images + i * dim;
    double sum = 0, squares = 0;
    for (size_t k = 0; k < dim; ++k) sum += x[k];
    const double mean = sum / double(dim);
    for (size_t k = 0; k < dim; ++k) squares += (x[k] - mean) * (x[k] - mean);
    const double deviation = std::sqrt(squares / double(dim) + kContrastEpsilon);
    for (size_t k = 0; k < dim; ++k) x[k] = float((x[k] - mean) / deviation);
    if (scales) (*scales)[i] = {float(mean), float(deviation)};
  }
}

void InputTransform::apply(float* images, size_t count, std::vector<ImageScale>* scales) const {
  apply_contrast(images, count, scales);
  apply_whitening(images, count);
}

void InputTransform::apply_contrast(float* images, size_t count,
                                    std::vector<ImageScale>* scales) const {
  if (spec.contrast_normalize) {
    // Each image on its own: a large batch (the cached training set's
    // chunks, extraction's batches of 256 and their mirrors) is split over
    // the cores; a small one stays on this thread, where starting threads
    // would cost more than they save.
    const int threads =
        int(std::min<size_t>(size_t(resolve_thread_count(0)), count / kContrastImagesPerThread));
    if (threads <= 1 || scales) {
      contrast_normalize(images, count, dim, scales);
    } else {
      parallel_chunks(threads, int64_t(count), [&](int64_t begin, int64_t end) {
        contrast_normalize(images + size_t(begin) * dim, size_t(end - begin), dim, nullptr);
      });
    }
  }
}

void InputTransform::apply_whitening(float* images, size_t count) const {
  if (spec.whitening == Whitening::None || count == 0) return;
  if (spec.whitening == Whitening::Patch) {
    patch.apply(images, count);
    return;
  }
  std::vector<float> centred(images, images + count * dim);
  for (size_t i = 0; i < count; ++i) {
    for (size_t k = 0; k < dim; ++k) centred[i * dim + k] -= mean[k];
  }
  // Rows are images: Y = (X - mu) W^T.
  const int n = int(count), d = int(dim);
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, n, d, d, 1.0f, centred.data(), d,
              matrix.data(), d, 0.0f, images, d);
}

void InputTransform::restore(float* images, size_t count,
                             const std::vector<ImageScale>& scales) const {
  if (spec.whitening == Whitening::Patch) {
    patch.restore(images, count);
  } else if (spec.whitening != Whitening::None && count > 0) {
    std::vector<float> whitened(images, images + count * dim);
    const int n = int(count), d = int(dim);
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, n, d, d, 1.0f, whitened.data(), d,
                inverse.data(), d, 0.0f, images, d);
    for (size_t i = 0; i < count; ++i) {
      for (size_t k = 0; k < dim; ++k) images[i * dim + k] += mean[k];
    }
  }
  if (spec.contrast_normalize) {
    for (size_t i = 0; i < count && i < scales.size(); ++i) {
      for (size_t k = 0; k < dim; ++k) {
        images[i * dim + k] = images[i * dim + k] * scales[i].deviation + scales[i].mean;
      }
    }
  }
}

void for_each_learning_batch(const ImageSet& images, bool contrast,
                             const std::function<void(const float*, size_t, size_t)>& visit) {
  const size_t d = images.image_bytes();
  std::vector<float> batch(kLearnBatch * d);
  std::vector<size_t> indices;
  for (size_t start = 0; start < images.size(); start += kLearnBatch) {
    const size_t n = std::min(kLearnBatch, images.size() - start);
    indices.resize(n);
    for (size_t i = 0; i < n; ++i) indices[i] = start + i;
    fill_batch(images, indices, batch.data());
    if (contrast) contrast_normalize(batch.data(), n, d);
    visit(batch.data(), start, n);
  }
}

InputTransform learn_input_transform(const ImageSet& images, const InputTransformSpec& spec) {
  InputTransform transform;
  transform.spec = spec;
  transform.dim = images.image_bytes();
  if (spec.whitening == Whitening::None) return transform;
  if (images.size() == 0) throw std::runtime_error("whitening: no training images to learn it on");
  if (spec.whitening == Whitening::Patch) {
    transform.patch = learn_patch_whitening(images, spec.whitening_patch, spec.whitening_epsilon,
                                            spec.contrast_normalize);
    return transform;
  }
  const size_t d = transform.dim;
  CovarianceSums sums(d);
  std::vector<double> rows(kLearnBatch * d);
  for_each_learning_batch(images, spec.contrast_normalize, [&](const float* batch, size_t, size_t n) {
    for (size_t k = 0; k < n * d; ++k) rows[k] = batch[k];
    sums.add(rows.data(), n);
  });
  const double count = sums.count();
  const std::vector<double>& sum = sums.sums();
  double trace = 0;
  const std::vector<double> covariance = sums.covariance(trace);
  const double epsilon = spec.whitening_epsilon * trace / double(d);
  std::vector<double> values, vectors;
  symmetric_eigen(covariance, int(d), values, vectors);
  // Columns of `scaled` are eigenvectors times 1/sqrt(l + e) (and, for the
  // inverse, sqrt(l + e)); the eigenvalues come ascending, PCA wants the
  // largest component first.
  std::vector<double> whiten(d * d), unwhiten(d * d);
  for (size_t c = 0; c < d; ++c) {
    // A covariance is positive semi-definite: a slightly negative eigenvalue
    // is rounding, which would otherwise turn a singular direction into NaN.
    const double variance = std::max(values[c], 0.0) + epsilon;
    if (!(variance > 1e-12 * std::max(1.0, trace / double(d)))) {
      throw std::runtime_error("whitening: the training images' covariance is singular (" +
                               std::to_string(images.size()) + " images of " + std::to_string(d) +
                               " values); give EPS > 0, e.g. --whiten " +
                               std::string(spec.whitening == Whitening::Zca ? "zca" : "pca") +
                               ":0.1");
    }
    const double down = 1.0 / std::sqrt(variance), up = std::sqrt(variance);
    for (size_t r = 0; r < d; ++r) {
      whiten[r * d + c] = vectors[r * d + c] * down;
      unwhiten[r * d + c] = vectors[r * d + c] * up;
    }
  }
  transform.mean.resize(d);
  for (size_t k = 0; k < d; ++k) transform.mean[k] = float(sum[k] / count);
  transform.matrix.assign(d * d, 0.0f);
  transform.inverse.assign(d * d, 0.0f);
  if (spec.whitening == Whitening::Pca) {
    // W row j = (eigenvector d-1-j)^T / sqrt(l + e); W^-1 column j = that eigenvector * sqrt(l +
    // e).
    for (size_t j = 0; j < d; ++j) {
      const size_t c = d - 1 - j;
      for (size_t r = 0; r < d; ++r) {
        transform.matrix[j * d + r] = float(whiten[r * d + c]);
        transform.inverse[r * d + j] = float(unwhiten[r * d + c]);
      }
    }
  } else {
    // W = (U diag(1/sqrt(l + e))) U^T, W^-1 = (U diag(sqrt(l + e))) U^T.
    std::vector<double> product(d * d);
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, int(d), int(d), int(d), 1.0,
                whiten.data(), int(d), vectors.data(), int(d), 0.0, product.data(), int(d));
    for (size_t k = 0; k < d * d; ++k) transform.matrix[k] = float(product[k]);
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, int(d), int(d), int(d), 1.0,
                unwhiten.data(), int(d), vectors.data(), int(d), 0.0, product.data(), int(d));
    for (size_t k = 0; k < d * d; ++k) transform.inverse[k] = float(product[k]);
  }
  return transform;
}

std::vector<NamedTensor> InputTransform::tensors() const {
  if (spec.whitening == Whitening::None) return {};
  if (spec.whitening == Whitening::Patch) {
    const int64_t c = patch.channels, s = patch.patch;
    return {{kMeanTensor, {c}, patch.mean}, {kMatrixTensor, {c, c, s, s}, patch.filter}};
  }
  const int64_t d = int64_t(dim);
  return {
      {kMeanTensor, {d}, mean}, {kMatrixTensor, {d, d}, matrix}, {kInverseTensor, {d, d}, inverse}};
}

void InputTransform::add_metadata(SafetensorsMetadata& metadata) const {
  metadata["contrast_normalize"] = spec.contrast_normalize ? "true" : "false";
  metadata["whiten"] = whitening_name(spec);
}

InputTransform read_input_transform(const SafetensorsMetadata& metadata,
                                    std::vector<NamedTensor>& tensors, size_t image_values,
                                    const std::string& path) {
  InputTransform transform;
  transform.dim = image_values;
  const auto fail = [&](const std::string& what) -> void {
    throw std::runtime_error(path + ": " + what);
  };
  const auto contrast = metadata.find("contrast_normalize");
  if (contrast != metadata.end()) {
    if (contrast->second != "true" && contrast->second != "false") {
      fail("checkpoint metadata 'contrast_normalize' is '" + contrast->second +
           "', not true or false");
    }
    transform.spec.contrast_normalize = contrast->second == "true";
  }
  const auto whiten = metadata.find("whiten");
  if (whiten != metadata.end()) {
    try {
      const InputTransformSpec parsed = parse_whitening(whiten->second);
      transform.spec.whitening = parsed.whitening;
      transform.spec.whitening_epsilon = parsed.whitening_epsilon;
      transform.spec.whitening_patch = parsed.whitening_patch;
    } catch (const std::invalid_argument&) {
      fail("checkpoint metadata 'whiten' is '" + whiten->second +
           "', not none, zca:EPS, pca:EPS or patchS:EPS");
    }
  }
  std::vector<NamedTensor> kept;
  std::vector<NamedTensor> found;
  for (NamedTensor& t : tensors) {
    (t.name.rfind("input.", 0) == 0 ? found : kept).push_back(std::move(t));
  }
  tensors = std::move(kept);
  const bool whitened = transform.spec.whitening != Whitening::None;
  const auto take = [&](const char* name, std::vector<int64_t> shape) {
    for (NamedTensor& t : found) {
      if (t.name != name) continue;
      if (t.shape != shape) fail("tensor " + t.name + " is not shaped for " + std::to_string(image_values) + "-value images");
      for (float v : t.data) {
        if (!std::isfinite(v)) fail("tensor " + t.name + " holds a value that is not finite");
      }
      return std::move(t.data);
    }
    fail("lacks tensor " + std::string(name) + " that its whitening needs");
    return std::vector<float>{};
  };
  if (transform.spec.whitening == Whitening::Patch) {
    // The channels come from the filter's shape; the images must be square
    // planes of them.
    const auto filter = std::find_if(found.begin(), found.end(),
                                     [](const NamedTensor& t) { return t.name == kMatrixTensor; });
    const int64_t s = transform.spec.whitening_patch;
    const int64_t c = filter != found.end() && !filter->shape.empty() ? filter->shape[0] : 0;
    const int64_t side = c > 0 ? int64_t(std::lround(std::sqrt(double(image_values) / double(c)))) : 0;
    if (filter != found.end() && (c <= 0 || size_t(c * side * side) != image_values || side < s)) {
      fail("tensor " + std::string(kMatrixTensor) + " is not a patch whitening filter for " +
           std::to_string(image_values) + "-value images");
    }
    transform.patch.channels = int(c);
    transform.patch.side = int(side);
    transform.patch.patch = int(s);
    transform.patch.filter = take(kMatrixTensor, {c, c, s, s});
    transform.patch.mean = take(kMeanTensor, {c});
  } else if (whitened) {
    const int64_t d = int64_t(image_values);
    transform.mean = take(kMeanTensor, {d});
    transform.matrix = take(kMatrixTensor, {d, d});
    transform.inverse = take(kInverseTensor, {d, d});
  }
  const bool patch = transform.spec.whitening == Whitening::Patch;
  for (const NamedTensor& t : found) {
    const bool known = whitened && (t.name == kMeanTensor || t.name == kMatrixTensor ||
                                    (t.name == kInverseTensor && !patch));
    if (!known) fail("tensor " + t.name + " is not part of the checkpoint's input transform");
  }
  return transform;
}

}  // namespace cae
