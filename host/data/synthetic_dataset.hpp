#pragma once
// A synthetic stand-in for CIFAR-10 in the same binary format, for tests and
// for machines without the real data set.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "data/image_set.hpp"

namespace cae {

// What to do when the folder already holds CIFAR-10 files: they may be the
// user's real data set, which a generated one must never silently replace.
enum class SyntheticOverwrite { kRefuse, kReplace };

// Writes data_batch_1.bin, data_batch_2.bin, ... (up to 10,000 images each),
// test_batch.bin (all n_test images) and batches.meta.txt into `dir` (created
// if needed), each file atomically. Classes are balanced and the output is the
// same for the same (n_train, n_test, seed). With kRefuse, a folder that
// already holds any of these files is a DataError naming them, and nothing is
// written; with kReplace, they are overwritten and data_batch_<n>.bin files
// left by an earlier, larger set are removed, since load_cifar would read them.
// The files form one output set (io/output_set.hpp): they replace the
// previous set all at once when complete, never some of them.
// Throws DataError for n_train or n_test of 0, IoError for file problems.
void write_synthetic_cifar(const std::string& dir, size_t n_train, size_t n_test, uint64_t seed,
                           SyntheticOverwrite overwrite = SyntheticOverwrite::kRefuse);

// The names of the files write_synthetic_cifar writes for `n_train` training
// images, for the checks made before any work.
std::vector<std::string> synthetic_cifar_files(size_t n_train);

// The same images in memory: split `test` (or train) of a set of `count`
// images, identical to what write_synthetic_cifar writes for that count.
ImageSet synthetic_image_set(size_t count, uint64_t seed, bool test);

}  // namespace cae
