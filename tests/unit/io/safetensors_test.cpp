#include "io/safetensors.hpp"

#include <doctest/doctest.h>

#include <cstring>
#include <nlohmann/json.hpp>

#include "io/io_error.hpp"
#include "io/scratch_dir.hpp"

using cae::IoError;
using cae::NamedTensor;
using cae::test::ScratchDir;

namespace {

std::vector<NamedTensor> sample_tensors() {
  return {{"encoder.conv1.weight", {2, 1, 3, 3}, std::vector<float>(18)},
          {"encoder.conv1.bias", {2}, {0.5f, -1.25f}},
          {"scalar", {}, {3.0f}},
          {"empty", {0, 4}, {}}};
}

// A file with a hand-made header and `data_bytes` zero bytes of data.
std::string handmade(const std::string& header, size_t data_bytes) {
  std::string bytes(8, '\0');
  uint64_t length = header.size();
  std::memcpy(&bytes[0], &length, 8);
  return bytes + header + std::string(data_bytes, '\0');
}

}  // namespace

TEST_CASE("safetensors round trip keeps names, shapes, values, order and metadata") {
  ScratchDir dir;
  std::vector<NamedTensor> tensors = sample_tensors();
  for (size_t i = 0; i < tensors[0].data.size(); ++i) tensors[0].data[i] = 0.1f * i - 0.7f;
  const std::string path = dir.file("model.safetensors");
  cae::write_safetensors(path, tensors, {{"format", "pt"}, {"epoch", "3"}});
  CHECK(dir.listing() == "model.safetensors");

  const cae::SafetensorsFile file = cae::read_safetensors(path);
  REQUIRE(file.tensors.size() == tensors.size());
  for (size_t i = 0; i < tensors.size(); ++i) {
    CHECK(file.tensors[i].name == tensors[i].name);
    CHECK(file.tensors[i].shape == tensors[i].shape);
    CHECK(file.tensors[i].data == tensors[i].data);
  }
  CHECK(file.metadata.at("epoch") == "3");
  CHECK(file.metadata.at("format") == "pt");
  CHECK(file.at("encoder.conv1.bias").data[1] == -1.25f);
  CHECK(file.find("missing") == nullptr);
  CHECK_THROWS_WITH_AS(file.at("missing"), (path + ": has no tensor 'missing'").c_str(), IoError);
}

TEST_CASE("the header is JSON padded with spaces to a multiple of 8 and data follows it") {
  ScratchDir dir;
  const std::string path = dir.file("t.safetensors");
  cae::write_safetensors(path, {{"w", {3}, {1.0f, 2.0f, 3.0f}}});
  const std::string bytes = cae::test::read_bytes(path);
  uint64_t length = 0;
  std::memcpy(&length, bytes.data(), 8);
  CHECK(length % 8 == 0);
  REQUIRE(bytes.size() == 8 + length + 12);
  const auto header = nlohmann::json::parse(bytes.substr(8, length));
  CHECK(header["w"]["dtype"] == "F32");
  CHECK(header["w"]["shape"] == nlohmann::json::array({3}));
  CHECK(header["w"]["data_offsets"] == nlohmann::json::array({0, 12}));
  CHECK_FALSE(header.contains("__metadata__"));
  float values[3];
  std::memcpy(values, bytes.data() + 8 + length, 12);
  CHECK(values[2] == 3.0f);
}

TEST_CASE("the writer rejects bad tensors and leaves no file") {
  ScratchDir dir;
  const std::string path = dir.file("bad.safetensors");
  CHECK_THROWS_WITH_AS(
      cae::write_safetensors(path, {{"w", {2, 2}, {1, 2, 3}}}),
      ("cannot write " + path + ": tensor 'w' has shape [2,2] but 3 values").c_str(), IoError);
  CHECK_THROWS_WITH_AS(cae::write_safetensors(path, {{"w", {1}, {1}}, {"w", {1}, {2}}}),
                       doctest::Contains("the name is used twice"), IoError);
  CHECK_THROWS_WITH_AS(cae::write_safetensors(path, {{"__metadata__", {1}, {1}}}),
                       doctest::Contains("the name is reserved"), IoError);
  CHECK_THROWS_WITH_AS(cae::write_safetensors(path, {{"", {1}, {1}}}),
                       doctest::Contains("a tensor has no name"), IoError);
  CHECK(dir.listing() == "");
}

TEST_CASE("the reader names the file and the problem") {
  ScratchDir dir;
  const std::string path = dir.file("x.safetensors");
  auto expect_error = [&](const std::string& bytes, const std::string& message) {
    cae::test::write_bytes(path, bytes);
    CHECK_THROWS_WITH_AS(cae::read_safetensors(path), (path + ": " + message).c_str(), IoError);
  };
  expect_error("abc", "truncated: 3 bytes, too short for the 8-byte header length");
  expect_error(handmade("{}", 0).substr(0, 9),
               "header length 2 goes beyond the end of the 9-byte file");
  expect_error(handmade("{\"a\":", 0).substr(0, 12),
               "header length 5 goes beyond the end of the 12-byte file");
  expect_error(handmade("[1, 2]  ", 0), "the JSON header is not an object");
  expect_error(handmade(R"({"w":{"dtype":"F16","shape":[1],"data_offsets":[0,2]}})", 2),
               "tensor 'w' has dtype F16 (only F32 is supported)");
  expect_error(handmade(R"({"w":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})", 4),
               "tensor 'w' has data_offsets [0,8] outside the 4-byte data section");
  expect_error(handmade(R"({"w":{"dtype":"F32","shape":[2],"data_offsets":[8,4]}})", 8),
               "tensor 'w' has data_offsets [8,4] outside the 8-byte data section");
  expect_error(handmade(R"({"w":{"dtype":"F32","shape":[3],"data_offsets":[0,8]}})", 8),
               "tensor 'w' has shape [3] but its data_offsets span 8 bytes");
  expect_error(handmade(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},)"
                        R"("b":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}})",
                        12),
               "tensors 'a' and 'b' overlap");
  expect_error(handmade(R"({"w":{"dtype":"F32","shape":[-1],"data_offsets":[0,4]}})", 4),
               "tensor 'w' has a shape that is not all integers >= 0");
  expect_error(handmade(R"({"w":{"dtype":"F32","shape":[1]}})", 4),
               "tensor 'w' has no data_offsets pair of integers >= 0");
  expect_error(handmade(R"({"__metadata__":{"k":1}})", 0),
               "__metadata__ value of 'k' is not a string");
}

TEST_CASE("bad JSON is one line that names the file") {
  ScratchDir dir;
  const std::string path = dir.file("j.safetensors");
  cae::test::write_bytes(path, handmade("{\"a\":\n tru}", 0));
  try {
    cae::read_safetensors(path);
    FAIL("expected an IoError");
  } catch (const IoError& error) {
    const std::string message = error.what();
    CHECK(message.rfind(path + ": bad JSON header: ", 0) == 0);
    CHECK(message.find('\n') == std::string::npos);
  }
}

TEST_CASE("a truncated data section is detected") {
  ScratchDir dir;
  const std::string path = dir.file("cut.safetensors");
  cae::write_safetensors(path, {{"w", {4}, {1, 2, 3, 4}}});
  std::string bytes = cae::test::read_bytes(path);
  bytes.resize(bytes.size() - 1);
  cae::test::write_bytes(path, bytes);
  CHECK_THROWS_WITH_AS(cae::read_safetensors(path),
                       doctest::Contains("outside the 15-byte data section"), IoError);
}

TEST_CASE("a missing file is an IoError naming it") {
  CHECK_THROWS_WITH_AS(cae::read_safetensors("/nonexistent/m.safetensors"),
                       "cannot read /nonexistent/m.safetensors: No such file or directory",
                       IoError);
}
