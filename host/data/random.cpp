#include "data/random.hpp"

#include <cmath>
#include <utility>

namespace cae {

namespace {
constexpr double kTwoPi = 6.283185307179586476925;
}  // namespace

uint64_t mix_seed(uint64_t a, uint64_t b) {
  uint64_t z = a + 0x9e3779b97f4a7c15ULL * (b + 1);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

double uniform01(std::mt19937_64& rng) {
  // The top 53 bits fill a double's mantissa exactly.
  return static_cast<double>(rng() >> 11) * 0x1.0p-53;
}

double uniform(std::mt19937_64& rng, double low, double high) {
  return low + (high - low) * uniform01(rng);
}

uint64_t uniform_below(std::mt19937_64& rng, uint64_t n) {
  // Reject the top partial block of 2^64 so every residue is equally likely.
  const uint64_t limit = UINT64_MAX - UINT64_MAX % n;
  uint64_t value;
  do {
    value = rng();
  } while (value >= limit);
  return value % n;
}

double standard_normal(std::mt19937_64& rng) {
  const double u1 = 1.0 - uniform01(rng);  // in (0, 1], safe for log
  const double u2 = uniform01(rng);
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(kTwoPi * u2);
}

void shuffle_indices(std::vector<size_t>& indices, std::mt19937_64& rng) {
  for (size_t i = indices.size(); i > 1; --i) {
    std::swap(indices[i - 1], indices[uniform_below(rng, i)]);
  }
}

}  // namespace cae
