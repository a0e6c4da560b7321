#include "data/synthetic_dataset.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>

#include "data/cifar_check.hpp"
#include "data/cifar_dataset.hpp"
#include "data/data_error.hpp"
#include "data/synthetic_images.hpp"
#include "io/scratch_dir.hpp"

using cae::test::ScratchDir;
namespace fs = std::filesystem;

TEST_CASE("a synthetic set loads like CIFAR-10, with balanced classes and its class names") {
  ScratchDir dir;
  cae::write_synthetic_cifar(dir.path(), 200, 50, 7);
  CHECK(dir.listing() == "batches.meta.txt cae-set.json data_batch_1.bin test_batch.bin");
  const cae::CifarData data = cae::load_cifar(dir.path());
  CHECK(data.train.size() == 200);
  CHECK(data.test.size() == 50);
  CHECK(data.class_names[0] == "disc");
  CHECK(data.class_names[9] == "dots");
  const cae::CifarSummary summary = cae::check_cifar(dir.path());
  for (size_t c = 0; c < 10; ++c) {
    CHECK(summary.train.per_class[c] == 20);
    CHECK(summary.test.per_class[c] == 5);
  }
}

TEST_CASE("the same seed gives the same bytes; another seed does not") {
  ScratchDir a, b, c;
  cae::write_synthetic_cifar(a.path(), 60, 20, 42);
  cae::write_synthetic_cifar(b.path(), 60, 20, 42);
  cae::write_synthetic_cifar(c.path(), 60, 20, 43);
  for (const char* name : {"data_batch_1.bin", "test_batch.bin", "batches.meta.txt"}) {
    CHECK(cae::test::read_bytes(a.file(name)) == cae::test::read_bytes(b.file(name)));
  }
  CHECK(cae::test::read_bytes(a.file("data_batch_1.bin")) !=
        cae::test::read_bytes(c.file("data_batch_1.bin")));
}

TEST_CASE("training images are split into files of 10,000 and stale files are removed") {
  ScratchDir dir;
  cae::test::write_bytes(dir.file("data_batch_3.bin"), "left over from a larger set");
  cae::test::write_bytes(dir.file("data_batch_17.bin"), "left over too");
  cae::write_synthetic_cifar(dir.path(), 10001, 10, 1, cae::SyntheticOverwrite::kReplace);
  CHECK(dir.listing() == "batches.meta.txt cae-set.json data_batch_1.bin data_batch_2.bin test_batch.bin");
  CHECK(fs::file_size(dir.file("data_batch_1.bin")) == 10000 * 3073);
  CHECK(fs::file_size(dir.file("data_batch_2.bin")) == 3073);
  CHECK(cae::load_cifar(dir.path()).train.size() == 10001);
}

TEST_CASE("images differ from each other and use a wide range of values") {
  ScratchDir dir;
  cae::write_synthetic_cifar(dir.path(), 40, 10, 3);
  const cae::ImageSet train = cae::load_cifar(dir.path()).train;
  for (size_t i = 0; i < train.size(); ++i) {
    const uint8_t* image = train.image(i);
    const auto [low, high] = std::minmax_element(image, image + 3072);
    CHECK(*high - *low > 40);
    if (i > 0) CHECK_FALSE(std::equal(image, image + 3072, train.image(i - 1)));
  }
}

TEST_CASE("empty splits are refused") {
  ScratchDir dir;
  CHECK_THROWS_AS(cae::write_synthetic_cifar(dir.path(), 0, 10, 1), cae::DataError);
  CHECK_THROWS_AS(cae::write_synthetic_cifar(dir.path(), 10, 0, 1), cae::DataError);
  CHECK(dir.listing() == "");
}

TEST_CASE("a data set mixing batch files of two runs is refused, naming the file") {
  ScratchDir one, two;
  cae::write_synthetic_cifar(one.path(), 60, 20, 1);
  cae::write_synthetic_cifar(two.path(), 60, 20, 2);
  fs::copy_file(two.file("test_batch.bin"), one.file("test_batch.bin"),
                fs::copy_options::overwrite_existing);  // a half-replaced set
  try {
    cae::load_cifar(one.path());
    FAIL("a mixed set was loaded");
  } catch (const cae::DataError& error) {
    const std::string message = error.what();
    CHECK(message.find(one.file("test_batch.bin") + " is not the file `cae data synth`") == 0);
    CHECK(message.find("mixes files of two runs") != std::string::npos);
  }
}
