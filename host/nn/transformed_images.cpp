#include "nn/transformed_images.hpp"

#include <algorithm>
#include <stdexcept>

#include "common/parallel.hpp"
#include "data/augment.hpp"
#include "data/batcher.hpp"

namespace cae::nn {

TransformedImages::TransformedImages(const ImageSet& images, const InputTransform* transform,
                                     bool with_mirrors) {
  BatchTransform on_host(transform, nullptr);
  *this = TransformedImages(images, on_host, with_mirrors);
}

TransformedImages::TransformedImages(const ImageSet& images, BatchTransform& batch_transform,
                                     bool with_mirrors) {
  const InputTransform* transform = batch_transform.transform();
  if (!transform || images.on_disk()) return;
  const bool whitens = transform->spec.whitening != Whitening::None;
  // On the backend, the host's threads stop before the whitening, which the
  // backend then applies to every row (one thread issues its calls).
  const bool backend_whitens = batch_transform.whitens_on_backend();
  // What the host's threads apply to a chunk.
  auto on_host = [&](float* chunk, size_t n) {
    if (backend_whitens) {
      transform->apply_contrast(chunk, n);
    } else {
      transform->apply(chunk, n);
    }
  };
  // Dense whitening's SGEMM uses every core itself; contrast normalisation
  // and patch whitening's convolution run one chunk per thread.
  const bool dense = !transform->per_image();
  const size_t bytes = images.size() * images.image_bytes() * sizeof(float) * (with_mirrors ? 2 : 1);
  if (!whitens && bytes > kMaxContrastOnlyBytes) return;
  // Chunks small enough that apply() keeps each on the thread that has it.
  constexpr size_t kChunk = InputTransform::kContrastImagesPerThread;
  dim_ = images.image_bytes();
  count_ = images.size();
  rows_.reset(new float[count_ * dim_]);
  if (with_mirrors) mirrored_rows_.reset(new float[count_ * dim_]);
  // Chunks are independent (rows of their own): contrast normalisation alone
  // is split over the cores by chunk (110,000 images with mirrors took a
  // second on one); whitening's SGEMM already uses them all.
  const size_t chunks = (images.size() + kChunk - 1) / kChunk;
  parallel_chunks(dense ? 1 : resolve_thread_count(0), int64_t(chunks),
                  [&](int64_t first_chunk, int64_t end_chunk) {
    std::vector<size_t> indices;
    for (size_t chunk = size_t(first_chunk); chunk < size_t(end_chunk); ++chunk) {
      const size_t start = chunk * kChunk;
      const size_t n = std::min(kChunk, images.size() - start);
      indices.resize(n);
      for (size_t i = 0; i < n; ++i) indices[i] = start + i;
      float* rows = rows_.get() + start * dim_;
      fill_batch(images, indices, rows);
      if (with_mirrors) {
        float* mirrored = mirrored_rows_.get() + start * dim_;
        mirror_images(rows, mirrored, n, images.channels, images.side);
        on_host(mirrored, n);
      }
      on_host(rows, n);
    }
  });
  if (backend_whitens) {
    batch_transform.apply_whitening(rows_.get(), count_);
    if (with_mirrors) batch_transform.apply_whitening(mirrored_rows_.get(), count_);
  }
}

void TransformedImages::fill(const std::vector<size_t>& indices, const std::vector<bool>& mirrored,
                             float* out) const {
  for (size_t b = 0; b < indices.size(); ++b) {
    if (indices[b] >= count_) {
      throw std::out_of_range("TransformedImages: image " + std::to_string(indices[b]) +
                              " is past the end of a set of " + std::to_string(count_));
    }
    const bool mirror = b < mirrored.size() && mirrored[b];
    if (mirror && !mirrored_rows_) throw std::logic_error("TransformedImages: no mirrors kept");
    const float* source = (mirror ? mirrored_rows_ : rows_).get() + indices[b] * dim_;
    std::copy_n(source, dim_, out + b * dim_);
  }
}

}  // namespace cae::nn
