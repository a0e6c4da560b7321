#include "data/image_subset.hpp"

#include <stdexcept>
#include <string>

namespace cae {

ImageSet images_without(const ImageSet& set, const std::vector<int64_t>& rows) {
  const int64_t count = static_cast<int64_t>(set.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    const bool ordered = i == 0 || rows[i] > rows[i - 1];
    if (rows[i] < 0 || rows[i] >= count || !ordered) {
      throw std::invalid_argument("images_without: row " + std::to_string(rows[i]) +
                                  " is not an ascending row of a set of " + std::to_string(count) +
                                  " images");
    }
  }
  if (static_cast<int64_t>(rows.size()) >= count) {
    throw std::invalid_argument("images_without: leaving out " + std::to_string(rows.size()) +
                                " of " + std::to_string(count) + " images keeps none");
  }
  ImageSet kept;
  kept.channels = set.channels;
  kept.side = set.side;
  kept.class_names = set.class_names;
  const size_t keep = set.size() - rows.size(), bytes = set.image_bytes();
  kept.labels.reserve(keep);
  kept.pixels.resize(keep * bytes);
  size_t next = 0, out = 0;
  for (size_t i = 0; i < set.size(); ++i) {
    if (next < rows.size() && static_cast<size_t>(rows[next]) == i) {
      ++next;
      continue;
    }
    set.copy_image(i, kept.pixels.data() + out * bytes);
    kept.labels.push_back(set.labels[i]);
    ++out;
  }
  return kept;
}

}  // namespace cae
