// The seed project's raw weights file: exactly the seed network's floats, in
// from_flat's order, every one finite; anything else refused naming the file.
#include "nn/seed_weights.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "io/io_error.hpp"

namespace cae::nn {
namespace {

std::string bytes_of(const std::vector<float>& values) {
  std::string bytes(values.size() * sizeof(float), '\0');
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

TEST_CASE("the seed's raw weights read as the seed network's parameters, in order") {
  std::vector<float> values(size_t(Network::seed().parameter_count()));
  for (size_t i = 0; i < values.size(); ++i) values[i] = float(i % 1000) * 1e-3f - 0.5f;
  const Parameters parameters = parse_seed_weights(bytes_of(values), "w.bin");
  CHECK(parameters.flatten() == values);

  std::vector<float> with_nan = values;
  with_nan[12345] = std::nanf("");
  CHECK_THROWS_WITH_AS(parse_seed_weights(bytes_of(with_nan), "w.bin"),
                       doctest::Contains("w.bin holds a non-finite value"), IoError);
  CHECK_THROWS_WITH_AS(parse_seed_weights(bytes_of(values).substr(4), "w.bin"),
                       doctest::Contains("w.bin is 3007496 bytes; the seed's weights file is 3007500"),
                       IoError);
}

}  // namespace
}  // namespace cae::nn
