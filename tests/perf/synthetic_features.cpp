// cae-synthetic-features: writes a feature folder as `cae extract` leaves it
// (DIR/{train,test}_{features,labels}.npy, published as one set with its
// manifest, io/output_set.hpp, so readers check and hash every file as they
// do extract's), of any size, for measuring the
// classifier stage (`cae svm`) without training an encoder. Each class is a
// Gaussian cloud: centres ~ N(0, spread^2) per dimension, points ~ centre +
// N(0, 1), so small spreads overlap. tests/cli/write_features.py writes the
// same kind of set in pure Python for the small CLI tests; this one is for
// sizes such as 200,000 x 8,192 (6.1 GiB).
//
// usage: cae-synthetic-features DIR TRAIN_ROWS TEST_ROWS DIM CLASSES SPREAD SEED
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "io/npy.hpp"
#include "io/output_set.hpp"

namespace {

// Rows [first, first + count) of a split, each from its own seeded stream, so
// the result does not depend on how the rows are shared among threads.
void fill_rows(std::vector<float>& values, std::vector<int32_t>& labels, int64_t first,
               int64_t count, int64_t dim, int classes, const std::vector<float>& centres,
               uint64_t seed) {
  for (int64_t r = first; r < first + count; ++r) {
    std::mt19937_64 random(seed * 1000003 + static_cast<uint64_t>(r));
    std::normal_distribution<float> noise(0.0f, 1.0f);
    const int c = static_cast<int>(random() % static_cast<uint64_t>(classes));
    labels[static_cast<size_t>(r)] = c;
    float* row = values.data() + r * dim;
    const float* centre = centres.data() + static_cast<int64_t>(c) * dim;
    for (int64_t d = 0; d < dim; ++d) row[d] = centre[d] + noise(random);
  }
}

void write_split(const std::string& dir, const std::string& name, int64_t rows, int64_t dim,
                 int classes, const std::vector<float>& centres, uint64_t seed) {
  std::vector<float> values(static_cast<size_t>(rows * dim));
  std::vector<int32_t> labels(static_cast<size_t>(rows));
  const int64_t threads = std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::thread> pool;
  for (int64_t t = 0; t < threads; ++t) {
    const int64_t first = rows * t / threads;
    const int64_t count = rows * (t + 1) / threads - first;
    pool.emplace_back(fill_rows, std::ref(values), std::ref(labels), first, count, dim, classes,
                      std::cref(centres), seed);
  }
  for (std::thread& thread : pool) thread.join();
  cae::write_npy_matrix(dir + "/" + name + "_features.npy", values.data(), size_t(rows),
                        size_t(dim));
  cae::write_npy_vector(dir + "/" + name + "_labels.npy", labels);
}

// The set: centres drawn from the seed, then each split, published together
// (an error leaves the folder as it was).
void write_set(const std::string& dir, int64_t train, int64_t test, int64_t dim, int classes,
               double spread, uint64_t seed) {
  std::mt19937_64 random(seed);
  std::normal_distribution<float> normal(0.0f, static_cast<float>(spread));
  std::vector<float> centres(static_cast<size_t>(classes * dim));
  for (float& c : centres) c = normal(random);
  cae::OutputSet set(dir, "cae-synthetic-features");
  write_split(dir, "train", train, dim, classes, centres, seed + 1);
  if (test > 0) write_split(dir, "test", test, dim, classes, centres, seed + 2);
  set.publish();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 8) {
    std::fprintf(stderr,
                 "usage: cae-synthetic-features DIR TRAIN_ROWS TEST_ROWS DIM CLASSES SPREAD SEED\n");
    return 2;
  }
  const std::string dir = argv[1];
  const int64_t train = std::atoll(argv[2]);
  const int64_t test = std::atoll(argv[3]);
  const int64_t dim = std::atoll(argv[4]);
  const int classes = std::atoi(argv[5]);
  const double spread = std::atof(argv[6]);
  const uint64_t seed = std::strtoull(argv[7], nullptr, 10);
  if (train < 1 || test < 0 || dim < 1 || classes < 2 || !(spread >= 0.0)) {
    std::fprintf(stderr, "cae-synthetic-features: sizes must be positive, CLASSES >= 2\n");
    return 2;
  }
  try {
    std::filesystem::create_directories(dir);
    write_set(dir, train, test, dim, classes, spread, seed);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cae-synthetic-features: %s\n", e.what());
    return 1;
  }
  std::printf("wrote %s: %lld train, %lld test rows of %lld floats, %d classes\n", dir.c_str(),
              static_cast<long long>(train), static_cast<long long>(test),
              static_cast<long long>(dim), classes);
  return 0;
}
