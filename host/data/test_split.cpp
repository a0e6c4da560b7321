#include "data/test_split.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <random>

#include "data/data_error.hpp"
#include "data/random.hpp"

namespace cae {

SplitIndices split_by_fraction(const std::vector<uint8_t>& labels, double fraction, uint64_t seed,
                               const std::string& what) {
  if (!(fraction > 0.0 && fraction < 1.0)) {
    throw DataError(what + ": --test-fraction must be between 0 and 1 (exclusive), got " +
                    std::to_string(fraction));
  }
  std::map<uint8_t, std::vector<size_t>> by_class;
  for (size_t i = 0; i < labels.size(); ++i) by_class[labels[i]].push_back(i);
  SplitIndices split;
  for (auto& [label, members] : by_class) {
    std::mt19937_64 rng(mix_seed(seed, label));
    shuffle_indices(members, rng);
    const size_t test = size_t(std::lround(fraction * double(members.size())));
    split.test.insert(split.test.end(), members.begin(), members.begin() + std::ptrdiff_t(test));
    split.train.insert(split.train.end(), members.begin() + std::ptrdiff_t(test), members.end());
  }
  std::sort(split.train.begin(), split.train.end());
  std::sort(split.test.begin(), split.test.end());
  if (split.train.empty() || split.test.empty()) {
    throw DataError(what + ": --test-fraction " + std::to_string(fraction) + " of " +
                    std::to_string(labels.size()) + " images leaves " +
                    std::to_string(split.train.size()) + " for training and " +
                    std::to_string(split.test.size()) + " for testing; both need at least one");
  }
  return split;
}

}  // namespace cae
