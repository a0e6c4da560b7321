#pragma once
// Random numbers that are the same on every platform for a given seed: the
// standard distributions (uniform_real_distribution, shuffle, ...) are
// implementation-defined, so data/ draws only raw std::mt19937_64 output
// through these functions.

#include <cstddef>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

namespace cae {

// A well-mixed seed derived from two values (splitmix64 finalizer), so that
// nearby inputs (seed, seed + 1; epoch 3, epoch 4) give unrelated streams.
uint64_t mix_seed(uint64_t a, uint64_t b);

// Uniform in [0, 1).
double uniform01(std::mt19937_64& rng);
// Uniform in [low, high).
double uniform(std::mt19937_64& rng, double low, double high);
// Uniform integer in [0, n), without modulo bias. n must be > 0.
uint64_t uniform_below(std::mt19937_64& rng, uint64_t n);
// Standard normal (Box-Muller).
double standard_normal(std::mt19937_64& rng);
// Fisher-Yates shuffle.
void shuffle_indices(std::vector<size_t>& indices, std::mt19937_64& rng);

}  // namespace cae
