#include "random_data.hpp"

#include "suite.hpp"

namespace conformance {
namespace {

// FNV-1a: a stable hash of the check's name (std::hash may differ between builds).
uint64_t fnv1a(const std::string& text) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

// splitmix64's finaliser: spreads the bits of the combined seed.
uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

}  // namespace

float Random::uniform(float lo, float hi) {
  return std::uniform_real_distribution<float>(lo, hi)(engine_);
}

std::vector<float> Random::uniform(int64_t count, float lo, float hi) {
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> values(static_cast<size_t>(count));
  for (float& v : values) v = dist(engine_);
  return values;
}

int64_t Random::index(int64_t count) {
  return std::uniform_int_distribution<int64_t>(0, count - 1)(engine_);
}

Random random_for(const std::string& op, const std::string& what) {
  return Random(mix(suite().seed ^ fnv1a(op + "/" + what)));
}

uint64_t fresh_seed() {
  std::random_device device;
  return (static_cast<uint64_t>(device()) << 32 | device()) % 1000000000ull;
}

}  // namespace conformance
