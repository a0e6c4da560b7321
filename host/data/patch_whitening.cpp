#include "data/patch_whitening.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "common/parallel.hpp"
#include "data/batcher.hpp"
#include "data/covariance_sums.hpp"
#include "data/image_set.hpp"
#include "data/input_transform.hpp"
#include "data/symmetric_eigen.hpp"

namespace cae {
namespace {

// Conjugate gradients: enough for the condition numbers EPS >= 1e-3 gives on
// natural images; the reconstructions it serves are pictures.
constexpr int kRestoreIterations = 300;
constexpr double kRestoreTolerance = 1e-5;

// out (+)= the filter applied to one image `in` (one pass of the
// convolution, every tap's valid rows), or with `transpose` its adjoint.
// The caller zeroes `out` first.
void convolve(const PatchWhitening& t, const float* in, float* out, bool transpose) {
  const int c_count = t.channels, side = t.side, s = t.patch, half = s / 2;
  const size_t plane = size_t(side) * size_t(side);
  for (int c = 0; c < c_count; ++c) {
    for (int from = 0; from < c_count; ++from) {
      const float* taps = &t.filter[(size_t(c) * size_t(c_count) + size_t(from)) * size_t(s * s)];
      for (int ti = 0; ti < s; ++ti) {
        for (int tj = 0; tj < s; ++tj) {
          const float w = taps[ti * s + tj];
          const int di = ti - half, dj = tj - half;
          const int i_lo = std::max(0, -di), i_hi = std::min(side, side - di);
          const int j_lo = std::max(0, -dj), j_hi = std::min(side, side - dj);
          // Forward: out[c](i, j) += w * in[from](i + di, j + dj).
          // Adjoint: out[from](i + di, j + dj) += w * in[c](i, j).
          const float* source = in + (transpose ? size_t(c) : size_t(from)) * plane;
          float* target = out + (transpose ? size_t(from) : size_t(c)) * plane;
          for (int i = i_lo; i < i_hi; ++i) {
            const size_t at = size_t(i) * size_t(side), shifted = size_t(i + di) * size_t(side);
            if (transpose) {
              for (int j = j_lo; j < j_hi; ++j) target[shifted + size_t(j + dj)] += w * source[at + size_t(j)];
            } else {
              for (int j = j_lo; j < j_hi; ++j) target[at + size_t(j)] += w * source[shifted + size_t(j + dj)];
            }
          }
        }
      }
    }
  }
}

double dot(const std::vector<float>& a, const std::vector<float>& b) {
  double sum = 0;
  for (size_t k = 0; k < a.size(); ++k) sum += double(a[k]) * double(b[k]);
  return sum;
}

// Solves filter * z = y for one image by conjugate gradients on the normal
// equations (A^T A z = A^T y): A is square but not symmetric.
void solve_one(const PatchWhitening& t, float* image) {
  const size_t n = t.image_values();
  const std::vector<float> y(image, image + n);
  std::vector<float> z(n, 0.0f), r(n, 0.0f), p, q(n), a_q(n);
  convolve(t, y.data(), r.data(), true);
  p = r;
  double rr = dot(r, r);
  const double stop = rr * kRestoreTolerance * kRestoreTolerance;
  for (int it = 0; it < kRestoreIterations && rr > stop; ++it) {
    std::fill(q.begin(), q.end(), 0.0f);
    convolve(t, p.data(), q.data(), false);
    const double qq = dot(q, q);
    if (!(qq > 0)) break;
    const double alpha = rr / qq;
    std::fill(a_q.begin(), a_q.end(), 0.0f);
    convolve(t, q.data(), a_q.data(), true);
    for (size_t k = 0; k < n; ++k) {
      z[k] += float(alpha * p[k]);
      r[k] -= float(alpha * a_q[k]);
    }
    const double next = dot(r, r);
    const double beta = next / rr;
    rr = next;
    for (size_t k = 0; k < n; ++k) p[k] = float(r[k] + beta * p[k]);
  }
  std::copy(z.begin(), z.end(), image);
}

}  // namespace

void PatchWhitening::apply(float* images, size_t count) const {
  const size_t n = image_values(), plane = size_t(side) * size_t(side);
  const auto some = [&](size_t begin, size_t end) {
    std::vector<float> centred(n);
    for (size_t i = begin; i < end; ++i) {
      float* image = images + i * n;
      for (int c = 0; c < channels; ++c) {
        for (size_t k = 0; k < plane; ++k) centred[size_t(c) * plane + k] = image[size_t(c) * plane + k] - mean[size_t(c)];
      }
      std::fill(image, image + n, 0.0f);
      convolve(*this, centred.data(), image, false);
    }
  };
  // Split like contrast normalisation: a chunk of the cached training set
  // (TransformedImages, already one per thread) stays on its thread.
  const int threads = int(std::min<size_t>(size_t(resolve_thread_count(0)),
                                           count / InputTransform::kContrastImagesPerThread));
  parallel_chunks(std::max(threads, 1), int64_t(count),
                  [&](int64_t begin, int64_t end) { some(size_t(begin), size_t(end)); });
}

void PatchWhitening::restore(float* images, size_t count) const {
  const size_t n = image_values(), plane = size_t(side) * size_t(side);
  // Each image's solve is a few hundred convolutions: one image per thread.
  const int threads = int(std::min<size_t>(size_t(resolve_thread_count(0)), count));
  parallel_chunks(std::max(threads, 1), int64_t(count), [&](int64_t begin, int64_t end) {
    for (size_t i = size_t(begin); i < size_t(end); ++i) {
      float* image = images + i * n;
      solve_one(*this, image);
      for (int c = 0; c < channels; ++c) {
        for (size_t k = 0; k < plane; ++k) image[size_t(c) * plane + k] += mean[size_t(c)];
      }
    }
  });
}

std::string patch_misfit(int patch, int side) {
  if (patch <= side) return "";
  const std::string s = std::to_string(patch), n = std::to_string(side);
  return "--whiten patch" + s + ": a " + s + "x" + s + " patch does not fit the " + n + "x" + n +
         " images";
}

PatchWhitening learn_patch_whitening(const ImageSet& images, int patch, double epsilon,
                                     bool contrast) {
  PatchWhitening t;
  t.channels = images.channels;
  t.side = images.side;
  t.patch = patch;
  const std::string misfit = patch_misfit(patch, images.side);
  if (!misfit.empty()) throw std::runtime_error(misfit);
  const size_t d = images.image_bytes(), plane = size_t(t.side) * size_t(t.side);
  const int per_patch = t.channels * patch * patch;
  const size_t p = size_t(per_patch);
  CovarianceSums sums(p);
  std::vector<double> channel_sum(size_t(t.channels), 0.0);
  std::vector<double> rows;
  for_each_learning_batch(images, contrast, [&](const float* batch, size_t start, size_t n) {
    rows.clear();
    for (size_t i = 0; i < n; ++i) {
      const float* image = batch + i * d;
      for (int c = 0; c < t.channels; ++c) {
        for (size_t k = 0; k < plane; ++k) channel_sum[size_t(c)] += image[size_t(c) * plane + k];
      }
      // A grid of patches per image, shifted by the image's index so that
      // the set as a whole sees every offset.
      const int offset = int((start + i) % size_t(patch));
      for (int top = offset; top + patch <= t.side; top += patch) {
        for (int left = offset; left + patch <= t.side; left += patch) {
          const size_t first = rows.size();
          double patch_sum = 0;
          for (int c = 0; c < t.channels; ++c) {
            for (int a = 0; a < patch; ++a) {
              for (int b = 0; b < patch; ++b) {
                const double v = image[size_t(c) * plane + size_t(top + a) * size_t(t.side) + size_t(left + b)];
                rows.push_back(v);
                patch_sum += v;
              }
            }
          }
          const double patch_mean = patch_sum / double(per_patch);
          for (size_t k = first; k < rows.size(); ++k) rows[k] -= patch_mean;
        }
      }
    }
    sums.add(rows.data(), rows.size() / p);
  });
  double trace = 0;
  const std::vector<double> covariance = sums.covariance(trace);
  const double e = epsilon * trace / double(p);
  if (!(e > 1e-12)) {
    throw std::runtime_error("--whiten patch" + std::to_string(patch) +
                             ": the patches carry no variance to whiten (constant images?)");
  }
  std::vector<double> values, vectors;
  symmetric_eigen(covariance, per_patch, values, vectors);
  // W_p = U diag(1/sqrt(l + e)) U^T; only the rows of the patch centre's
  // values are needed, one per channel.
  const size_t centre = size_t(patch / 2) * size_t(patch) + size_t(patch / 2);
  t.filter.assign(size_t(t.channels) * p, 0.0f);
  std::vector<double> down(p);  // 1/sqrt(l + e) per eigenvector
  for (size_t j = 0; j < p; ++j) down[j] = 1.0 / std::sqrt(std::max(values[j], 0.0) + e);
  for (int c = 0; c < t.channels; ++c) {
    const size_t row = size_t(c) * size_t(patch * patch) + centre;
    std::vector<double> filter(p, 0.0);
    for (size_t k = 0; k < p; ++k) {
      for (size_t j = 0; j < p; ++j) filter[k] += vectors[row * p + j] * down[j] * vectors[k * p + j];
    }
    double filter_mean = 0;
    for (double v : filter) filter_mean += v;
    filter_mean /= double(p);
    for (size_t k = 0; k < p; ++k) t.filter[size_t(c) * p + k] = float(filter[k] - filter_mean);
  }
  t.mean.resize(size_t(t.channels));
  const double pixels = double(images.size()) * double(plane);
  for (int c = 0; c < t.channels; ++c) t.mean[size_t(c)] = float(channel_sum[size_t(c)] / pixels);
  return t;
}

}  // namespace cae
