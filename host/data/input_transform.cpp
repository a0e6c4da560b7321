#include "data/input_transform.hpp"

#include <cblas.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include "common/parallel.hpp"
#include "data/batcher.hpp"

// LAPACK's symmetric eigensolver (divide and conquer), from OpenBLAS, which
// carries LAPACK: Debian ships no LAPACKE header with it.
extern "C" void dsyevd_(const char* jobz, const char* uplo, const int* n, double* a,
                        const int* lda, double* w, double* work, const int* lwork, int* iwork,
                        const int* liwork, int* info);

namespace cae {
namespace {

constexpr size_t kLearnBatch = 256;
constexpr char kMeanTensor[] = "input.mean";
constexpr char kMatrixTensor[] = "input.whitening";
constexpr char kInverseTensor[] = "input.unwhitening";

// Eigenvalues (ascending) and eigenvectors (columns of `vectors`, row-major
// n x n: vectors[r * n + c] is component r of eigenvector c) of a symmetric
// matrix.
void symmetric_eigen(std::vector<double> matrix, int n, std::vector<double>& values,
                     std::vector<double>& vectors) {
  values.assign(size_t(n), 0.0);
  int lwork = -1, liwork = -1, info = 0, iwork_size = 0;
  double work_size = 0;
  // Row-major symmetric is column-major symmetric: "U" of one is "L" of the other.
  dsyevd_("V", "U", &n, matrix.data(), &n, values.data(), &work_size, &lwork, &iwork_size, &liwork,
          &info);
  if (info != 0) throw std::runtime_error("whitening: the eigensolver's workspace query failed");
  lwork = int(work_size);
  liwork = iwork_size;
  std::vector<double> work(size_t(std::max(lwork, 1)));
  std::vector<int> iwork(size_t(std::max(liwork, 1)));
  dsyevd_("V", "U", &n, matrix.data(), &n, values.data(), work.data(), &lwork, iwork.data(),
          &liwork, &info);
  if (info != 0) {
    throw std::runtime_error("whitening: the covariance's eigendecomposition did not converge");
  }
  // LAPACK returns column-major eigenvectors: column c at matrix[c * n ...].
  vectors.assign(size_t(n) * size_t(n), 0.0);
  for (int c = 0; c < n; ++c) {
    for (int r = 0; r < n; ++r) vectors[size_t(r) * size_t(n) + size_t(c)] = matrix[size_t(c) * size_t(n) + size_t(r)];
  }
}

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

}  // namespace

InputTransformSpec parse_whitening(const std::string& text) {
  InputTransformSpec spec;
  const size_t colon = text.find(':');
  const std::string kind = text.substr(0, colon);
  if (kind == "zca") {
    spec.whitening = Whitening::Zca;
  } else if (kind == "pca") {
    spec.whitening = Whitening::Pca;
  } else if (kind == "none" && colon == std::string::npos) {
    return spec;
  } else {
    throw std::invalid_argument("--whiten '" + text + "' is not none, zca[:EPS] or pca[:EPS]");
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
  return spec;
}

std::string whitening_name(const InputTransformSpec& spec) {
  switch (spec.whitening) {
    case Whitening::None: return "none";
    case Whitening::Zca: return "zca:" + number_text(spec.whitening_epsilon);
    case Whitening::Pca: return "pca:" + number_text(spec.whitening_epsilon);
  }
  return "none";
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
  if (spec.whitening == Whitening::None || count == 0) return;
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
  if (spec.whitening != Whitening::None && count > 0) {
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

InputTransform learn_input_transform(const ImageSet& images, const InputTransformSpec& spec) {
  InputTransform transform;
  transform.spec = spec;
  transform.dim = images.image_bytes();
  if (spec.whitening == Whitening::None) return transform;
  if (images.size() == 0) throw std::runtime_error("whitening: no training images to learn it on");
  const size_t d = transform.dim;
  // Sums in double: 50,000 images of values near 1 would lose the
  // covariance's small eigenvalues in float.
  std::vector<double> sum(d, 0.0), covariance(d * d, 0.0);
  std::vector<float> batch(kLearnBatch * d);
  std::vector<double> rows(kLearnBatch * d);
  std::vector<size_t> indices;
  for (size_t start = 0; start < images.size(); start += kLearnBatch) {
    const size_t n = std::min(kLearnBatch, images.size() - start);
    indices.resize(n);
    for (size_t i = 0; i < n; ++i) indices[i] = start + i;
    fill_batch(images, indices, batch.data());
    if (spec.contrast_normalize) contrast_normalize(batch.data(), n, d);
    for (size_t k = 0; k < n * d; ++k) rows[k] = batch[k];
    for (size_t i = 0; i < n; ++i) {
      for (size_t k = 0; k < d; ++k) sum[k] += rows[i * d + k];
    }
    // covariance (upper triangle, row-major) += rows^T rows
    cblas_dsyrk(CblasRowMajor, CblasUpper, CblasTrans, int(d), int(n), 1.0, rows.data(), int(d),
                1.0, covariance.data(), int(d));
  }
  const double count = double(images.size());
  double trace = 0;
  for (size_t r = 0; r < d; ++r) {
    for (size_t c = r; c < d; ++c) {
      const double value = covariance[r * d + c] / count - (sum[r] / count) * (sum[c] / count);
      covariance[r * d + c] = covariance[c * d + r] = value;
    }
    trace += covariance[r * d + r];
  }
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
      throw std::runtime_error(
          "whitening: the training images' covariance is singular (" +
          std::to_string(images.size()) + " images of " + std::to_string(d) +
          " values); give EPS > 0, e.g. --whiten " +
          std::string(spec.whitening == Whitening::Zca ? "zca" : "pca") + ":0.1");
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
    // W row j = (eigenvector d-1-j)^T / sqrt(l + e); W^-1 column j = that eigenvector * sqrt(l + e).
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
  const int64_t d = int64_t(dim);
  return {{kMeanTensor, {d}, mean}, {kMatrixTensor, {d, d}, matrix}, {kInverseTensor, {d, d}, inverse}};
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
    } catch (const std::invalid_argument&) {
      fail("checkpoint metadata 'whiten' is '" + whiten->second + "', not none, zca:EPS or pca:EPS");
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
  if (whitened) {
    const int64_t d = int64_t(image_values);
    transform.mean = take(kMeanTensor, {d});
    transform.matrix = take(kMatrixTensor, {d, d});
    transform.inverse = take(kInverseTensor, {d, d});
  }
  for (const NamedTensor& t : found) {
    const bool known = whitened && (t.name == kMeanTensor || t.name == kMatrixTensor ||
                                    t.name == kInverseTensor);
    if (!known) fail("tensor " + t.name + " is not part of the checkpoint's input transform");
  }
  return transform;
}

}  // namespace cae
