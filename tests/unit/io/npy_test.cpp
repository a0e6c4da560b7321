#include "io/npy.hpp"

#include <doctest/doctest.h>

#include "io/io_error.hpp"
#include "io/npy_header.hpp"
#include "io/scratch_dir.hpp"

using cae::IoError;
using cae::test::ScratchDir;

namespace {

// A version 1.0 file with the given dict (unpadded) and raw data bytes.
std::string handmade(const std::string& dict, const std::string& data) {
  std::string bytes = "\x93NUMPY\x01";
  bytes += '\0';
  bytes += static_cast<char>(dict.size() & 0xff);
  bytes += static_cast<char>(dict.size() >> 8);
  return bytes + dict + data;
}

}  // namespace

TEST_CASE("float32 matrices round trip") {
  ScratchDir dir;
  const std::string path = dir.file("features.npy");
  std::vector<float> values(3 * 5);
  for (size_t i = 0; i < values.size(); ++i) values[i] = 0.25f * i - 1.0f;
  cae::write_npy_matrix(path, values.data(), 3, 5);
  CHECK(dir.listing() == "features.npy");
  const cae::FloatMatrix matrix = cae::read_npy_matrix(path);
  CHECK(matrix.rows == 3);
  CHECK(matrix.cols == 5);
  CHECK(matrix.values == values);
}

TEST_CASE("integer vectors round trip as uint8 and int32") {
  ScratchDir dir;
  cae::write_npy_vector(dir.file("u8.npy"), std::vector<uint8_t>{0, 9, 255});
  cae::write_npy_vector(dir.file("i32.npy"), std::vector<int32_t>{-5, 0, 70000});
  cae::write_npy_vector(dir.file("i32min.npy"), std::vector<int32_t>{INT32_MIN, INT32_MAX});
  CHECK(cae::read_npy_integers(dir.file("u8.npy")) == std::vector<int64_t>{0, 9, 255});
  CHECK(cae::read_npy_integers(dir.file("i32.npy")) == std::vector<int64_t>{-5, 0, 70000});
  CHECK(cae::read_npy_integers(dir.file("i32min.npy")) ==
        std::vector<int64_t>{INT32_MIN, INT32_MAX});
  cae::write_npy_vector(dir.file("empty.npy"), std::vector<int32_t>{});
  CHECK(cae::read_npy_integers(dir.file("empty.npy")).empty());
}

TEST_CASE("the header is version 1.0, 64-byte aligned, and spells the numpy dict") {
  const std::string header = cae::encode_npy_header("<f4", {3, 5});
  CHECK(header.size() % 64 == 0);
  CHECK(header.compare(0, 8, std::string("\x93NUMPY\x01\x00", 8)) == 0);
  CHECK(header.back() == '\n');
  CHECK(header.find("{'descr': '<f4', 'fortran_order': False, 'shape': (3, 5), }") == 10);
  CHECK(cae::encode_npy_header("|u1", {7}).find("'shape': (7,)") != std::string::npos);
}

TEST_CASE("headers written by numpy itself parse") {
  ScratchDir dir;
  const std::string path = dir.file("numpy.npy");
  // numpy's own spacing, double quotes and a Python 2 long suffix are all fine.
  cae::test::write_bytes(
      path, handmade("{\"descr\": \"<i8\", \"fortran_order\": False, "
                     "\"shape\": (2L,)}\n",
                     std::string("\x07\0\0\0\0\0\0\0\xff\xff\xff\xff\xff\xff\xff\xff", 16)));
  CHECK(cae::read_npy_integers(path) == std::vector<int64_t>{7, -1});
}

TEST_CASE("the readers name the file and the problem") {
  ScratchDir dir;
  const std::string path = dir.file("x.npy");
  auto matrix_error = [&](const std::string& bytes, const std::string& message) {
    cae::test::write_bytes(path, bytes);
    CHECK_THROWS_WITH_AS(cae::read_npy_matrix(path), (path + ": " + message).c_str(), IoError);
  };
  const std::string f4 = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }";
  matrix_error("not numpy", "not a .npy file (no \\x93NUMPY magic)");
  matrix_error(std::string("\x93NUMPY\x04\x00", 8), "unsupported .npy version 4.0");
  matrix_error(handmade(f4, "").substr(0, 20),
               "truncated .npy header (59-byte dict, file is 20 bytes)");
  matrix_error(handmade(f4, std::string(15, '\0')),
               "holds 15 data bytes, but shape (2, 2) of '<f4' needs 16");
  matrix_error(handmade("{'descr': '<f8', 'fortran_order': False, 'shape': (2, 2), }", ""),
               "unsupported dtype '<f8' (expected '<f4' float32)");
  matrix_error(handmade("{'descr': '<f4', 'fortran_order': True, 'shape': (1, 1), }", "abcd"),
               "Fortran-order arrays are not supported");
  matrix_error(handmade("{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }", ""),
               "expected a 2-D array, found shape (4)");
  matrix_error(handmade("{'descr': '<f4', 'shape': (1, 1), }", "abcd"),
               "bad .npy header: it lacks one of 'descr', 'fortran_order', 'shape'");
  matrix_error(handmade("{'descr': '<f4', 'fortran_order': False, 'shape': (a, 1), }", ""),
               "bad .npy header: the shape is not a tuple of integers");
  matrix_error(handmade("{'descr': '<f4' 'fortran_order': False}", ""),
               "bad .npy header: expected '}' at offset 16");

  cae::test::write_bytes(
      path, handmade("{'descr': '>i4', 'fortran_order': False, 'shape': (1,), }", "abcd"));
  CHECK_THROWS_WITH_AS(
      cae::read_npy_integers(path),
      doctest::Contains("unsupported dtype '>i4' (expected a little-endian integer"), IoError);
  cae::write_npy_matrix(path, nullptr, 0, 0);
  CHECK_THROWS_WITH_AS(cae::read_npy_integers(path), doctest::Contains(": unsupported dtype '<f4'"),
                       IoError);
}
