#include "data/synthetic_dataset.hpp"

#include <algorithm>
#include <filesystem>
#include <random>
#include <vector>

#include "data/cifar_files.hpp"
#include "data/cifar_format.hpp"
#include "data/data_error.hpp"
#include "data/random.hpp"
#include "data/synthetic_images.hpp"
#include "io/atomic_file.hpp"
#include "io/output_set.hpp"

namespace cae {

namespace fs = std::filesystem;

namespace {

enum class Split : uint64_t { kTrain = 1, kTest = 2 };

// data_batch_<number>.bin
std::string train_file_name(size_t number) {
  return cifar::kTrainPrefix + std::to_string(number) + ".bin";
}

// Balanced labels in a seeded random order.
std::vector<uint8_t> shuffled_labels(size_t count, uint64_t seed, Split split) {
  std::vector<size_t> order(count);
  for (size_t i = 0; i < count; ++i) order[i] = i % synthetic::kNumClasses;
  std::mt19937_64 rng(mix_seed(seed, 100 + static_cast<uint64_t>(split)));
  shuffle_indices(order, rng);
  return std::vector<uint8_t>(order.begin(), order.end());
}

// Image `index` of a split, from its own seeded stream so that it does not
// depend on how the split is cut into files.
void render_split_image(uint8_t label, size_t index, uint64_t seed, Split split, uint8_t* chw) {
  std::mt19937_64 rng(mix_seed(mix_seed(seed, static_cast<uint64_t>(split)), index));
  synthetic::render_image(label, rng, chw);
}

// Records [first, first + count) of a split, each image from its own seeded
// stream so that an image does not depend on how the split is cut into files.
void write_batch_file(const std::string& path, const std::vector<uint8_t>& labels, size_t first,
                      size_t count, uint64_t seed, Split split) {
  std::vector<uint8_t> records(count * cifar::kRecordBytes);
  for (size_t i = 0; i < count; ++i) {
    uint8_t* record = records.data() + i * cifar::kRecordBytes;
    record[0] = labels[first + i];
    render_split_image(record[0], first + i, seed, split, record + 1);
  }
  AtomicFile file(path);
  file.write(records.data(), records.size());
  file.commit();
}

// Batch files past the new set's last are the previous set's: they go when
// the new set is put in place, not before (an interrupted run keeps the old).
void remove_stale_train_files(const fs::path& dir, size_t files_written, OutputSet& set) {
  std::error_code error;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir, error)) {
    if (train_batch_number(entry.path().filename().string()) > files_written) {
      set.remove_on_publish(entry.path().string());
    }
  }
}

// Names of the CIFAR-10 files (batches, test batch, class names) in `dir` and
// in its cifar-10-batches-bin/: a set written next to the latter would take
// its place for `--data DIR` just as silently.
std::vector<std::string> existing_cifar_files(const fs::path& dir) {
  std::vector<std::string> names;
  for (const fs::path& folder : {dir, dir / cifar::kSubdirectory}) {
    std::error_code error;
    for (const fs::directory_entry& entry : fs::directory_iterator(folder, error)) {
      const std::string name = entry.path().filename().string();
      if (train_batch_number(name) > 0 || name == cifar::kTestFile || name == cifar::kMetaFile) {
        names.push_back(folder == dir ? name : (fs::path(cifar::kSubdirectory) / name).string());
      }
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

void refuse_to_overwrite(const std::string& dir) {
  const std::vector<std::string> names = existing_cifar_files(dir);
  if (names.empty()) return;
  std::string listed;
  for (size_t i = 0; i < names.size() && i < 4; ++i) listed += (i ? ", " : "") + names[i];
  if (names.size() > 4) listed += ", ...";
  throw DataError(dir + " already holds CIFAR-10 files (" + listed +
                  "); a synthetic set would replace them: choose an empty folder, or pass "
                  "--force to replace them");
}

}  // namespace

std::vector<std::string> synthetic_cifar_files(size_t n_train) {
  std::vector<std::string> names{cifar::kTestFile, cifar::kMetaFile};
  for (size_t file = 1; (file - 1) * cifar::kRecordsPerBatchFile < n_train; ++file) {
    names.push_back(train_file_name(file));
  }
  return names;
}

ImageSet synthetic_image_set(size_t count, uint64_t seed, bool test) {
  const Split split = test ? Split::kTest : Split::kTrain;
  ImageSet images;
  images.labels = shuffled_labels(count, seed, split);
  images.pixels.resize(count * cifar::kImageBytes);
  for (size_t i = 0; i < count; ++i) {
    render_split_image(images.labels[i], i, seed, split, images.pixels.data() + i * cifar::kImageBytes);
  }
  for (const char* name : synthetic::class_names()) images.class_names.push_back(name);
  return images;
}

void write_synthetic_cifar(const std::string& dir, size_t n_train, size_t n_test, uint64_t seed,
                           SyntheticOverwrite overwrite) {
  if (n_train == 0 || n_test == 0) {
    throw DataError("a synthetic data set needs at least one training and one test image");
  }
  ensure_directory(dir);
  if (overwrite == SyntheticOverwrite::kRefuse) refuse_to_overwrite(dir);
  const fs::path folder = dir;
  // All files of the set appear at once, or none does (io/output_set.hpp).
  OutputSet set(dir, "cae data synth");

  const std::vector<uint8_t> train_labels = shuffled_labels(n_train, seed, Split::kTrain);
  size_t files = 0;
  for (size_t first = 0; first < n_train; first += cifar::kRecordsPerBatchFile) {
    const size_t count = std::min(cifar::kRecordsPerBatchFile, n_train - first);
    const fs::path path = folder / train_file_name(++files);
    write_batch_file(path.string(), train_labels, first, count, seed, Split::kTrain);
  }
  remove_stale_train_files(folder, files, set);

  const std::vector<uint8_t> test_labels = shuffled_labels(n_test, seed, Split::kTest);
  write_batch_file((folder / cifar::kTestFile).string(), test_labels, 0, n_test, seed,
                   Split::kTest);

  std::string names;
  for (const char* name : synthetic::class_names()) names += std::string(name) + "\n";
  write_file_atomically((folder / cifar::kMetaFile).string(), names);
  set.publish();
}

}  // namespace cae
