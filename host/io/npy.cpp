#include "io/npy.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <future>

#include "io/atomic_file.hpp"
#include "io/binary_file.hpp"
#include "io/finite.hpp"
#include "io/io_error.hpp"
#include "io/memory_budget.hpp"
#include "io/npy_header.hpp"
#include "io/output_set.hpp"
#include "io/regular_file.hpp"
#include "io/sha256.hpp"

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              ".npy data is written and read in the machine's byte order, declared as '<'");

namespace cae {

namespace {

void write_npy(const std::string& path, const std::string& descr,
               const std::vector<uint64_t>& shape, const void* data, size_t bytes) {
  AtomicFile file(path);
  file.write(encode_npy_header(descr, shape));
  file.write(data, bytes);
  file.commit();
}

std::string shape_text(const std::vector<uint64_t>& shape) {
  std::string text = "(";
  for (size_t i = 0; i < shape.size(); ++i) text += (i ? ", " : "") + std::to_string(shape[i]);
  return text + ")";
}

// The header of `bytes`, after checking the dtype (item_bytes_of_descr gives 0
// for one we cannot read; `wanted` describes the acceptable ones), the number
// of dimensions, and that the data has exactly the size the shape calls for.
// `bytes` holds at least the header; the file is `file_bytes` long.
NpyHeader checked_header(const std::string& bytes, uint64_t file_bytes, const std::string& path,
                         size_t ndim, size_t item_bytes_of_descr(const std::string&),
                         const char* wanted) {
  NpyHeader header = parse_npy_header(bytes, path);
  const size_t item_bytes = item_bytes_of_descr(header.descr);
  if (item_bytes == 0) {
    throw IoError(path + ": unsupported dtype '" + header.descr + "' (expected " + wanted + ")");
  }
  if (header.fortran_order) throw IoError(path + ": Fortran-order arrays are not supported");
  if (header.shape.size() != ndim) {
    throw IoError(path + ": expected a " + std::to_string(ndim) + "-D array, found shape " +
                  shape_text(header.shape));
  }
  uint64_t expected = item_bytes;
  for (uint64_t dim : header.shape) {
    if (dim != 0 && expected > UINT64_MAX / dim) throw IoError(path + ": shape too large");
    expected *= dim;
  }
  const uint64_t actual = file_bytes - header.data_offset;
  if (actual != expected) {
    throw IoError(path + ": holds " + std::to_string(actual) + " data bytes, but shape " +
                  shape_text(header.shape) + " of '" + header.descr + "' needs " +
                  std::to_string(expected));
  }
  return header;
}

size_t float32_item_bytes(const std::string& descr) { return descr == "<f4" ? 4 : 0; }

size_t integer_item_bytes(const std::string& descr) {
  if (descr.size() != 3 || (descr[1] != 'i' && descr[1] != 'u')) return 0;
  const size_t bytes = static_cast<size_t>(descr[2] - '0');
  if (bytes == 1) return descr[0] == '|' || descr[0] == '<' ? 1 : 0;
  if (bytes == 2 || bytes == 4 || bytes == 8) return descr[0] == '<' ? bytes : 0;
  return 0;
}

template <typename T>
T load_little_endian(const char* at) {
  T value;
  std::memcpy(&value, at, sizeof value);
  return value;
}

int64_t load_integer(const char* at, char kind, size_t bytes, const std::string& path) {
  // Each branch widens on its own: a ?: over int32_t and uint32_t would turn
  // negative values into large unsigned ones.
  const bool is_signed = kind == 'i';
  switch (bytes) {
    case 1:
      if (is_signed) return load_little_endian<int8_t>(at);
      return load_little_endian<uint8_t>(at);
    case 2:
      if (is_signed) return load_little_endian<int16_t>(at);
      return load_little_endian<uint16_t>(at);
    case 4:
      if (is_signed) return load_little_endian<int32_t>(at);
      return load_little_endian<uint32_t>(at);
    default: {
      if (is_signed) return load_little_endian<int64_t>(at);
      const uint64_t value = load_little_endian<uint64_t>(at);
      if (value > static_cast<uint64_t>(INT64_MAX)) {
        throw IoError(path + ": value " + std::to_string(value) + " does not fit in int64");
      }
      return static_cast<int64_t>(value);
    }
  }
}

[[noreturn]] void refuse_non_finite(const FloatMatrix& matrix, size_t bad,
                                    const std::string& path) {
  throw IoError(path + ": value at row " + std::to_string(bad / matrix.cols) + ", column " +
                std::to_string(bad % matrix.cols) + " is " +
                (std::isnan(matrix.values[bad]) ? "NaN" : "infinite") +
                " (features must be finite numbers)");
}

void check_finite_matrix(const FloatMatrix& matrix, const std::string& path) {
  const size_t bad = first_non_finite(matrix.values.data(), matrix.values.size());
  if (bad != matrix.values.size()) refuse_non_finite(matrix, bad, path);
}

// The matrix's values from `file` (at its data), chunk by chunk, each checked
// for finite values as it arrives, and, with `hash`, hashed on a second
// thread while the next chunk is read: reading a folder's features is then
// one pass over the file, at the pace of the slower of the two, where reading,
// checking and hashing the file again one after another took three (a
// gigabyte-sized feature file's SHA-256 alone is about a second).
void read_matrix_values(std::FILE* file, FloatMatrix& matrix, Sha256* hash,
                        const std::string& path) {
  constexpr size_t kChunkFloats = size_t{4} << 20;  // 16 MiB
  float* values = matrix.values.data();
  const size_t total = matrix.values.size();
  std::future<void> hashing;  // the previous chunk's
  for (size_t first = 0; first < total; first += kChunkFloats) {
    const size_t n = std::min(kChunkFloats, total - first);
    if (std::fread(values + first, sizeof(float), n, file) != n) {
      throw IoError("cannot read " + path + ": the file ended early");
    }
    const size_t bad = first_non_finite(values + first, n);
    if (bad != n) refuse_non_finite(matrix, first + bad, path);
    if (!hash) continue;
    if (hashing.valid()) hashing.get();
    hashing = std::async(std::launch::async, [hash, chunk = values + first, n] {
      hash->update(chunk, n * sizeof(float));
    });
  }
  if (hashing.valid()) hashing.get();
}

}  // namespace

void write_npy_matrix(const std::string& path, const float* data, size_t rows, size_t cols) {
  // What is written must load again: the reader refuses non-finite values.
  require_finite(data, rows * cols, "cannot write " + path + ": the matrix");
  write_npy(path, "<f4", {rows, cols}, data, rows * cols * sizeof(float));
}

void write_npy_vector(const std::string& path, const std::vector<uint8_t>& values) {
  write_npy(path, "|u1", {values.size()}, values.data(), values.size());
}

void write_npy_vector(const std::string& path, const std::vector<int32_t>& values) {
  write_npy(path, "<i4", {values.size()}, values.data(), values.size() * sizeof(int32_t));
}

FloatMatrix read_npy_matrix(const std::string& path) {
  // The header first, then the values straight into the matrix: reading the
  // whole file before copying would hold a feature file (6 GiB at 200,000 x
  // 8,192) twice. Anything unusual (not a regular file, a header beyond the
  // first MiB) takes the whole-file path, whose messages say what is wrong.
  constexpr size_t kHeadBytes = size_t{1} << 20;
  std::string open_error;
  const UniqueFile file = open_regular_file(path, open_error);  // a FIFO must not block
  struct stat status {};
  if (!file || ::fstat(::fileno(file.get()), &status) != 0) {
    return parse_npy_matrix(read_binary_file(path), path);
  }
  const uint64_t file_bytes = static_cast<uint64_t>(status.st_size);
  // The matrix is as large as the file's data: refused before it is made.
  require_host_memory(file_bytes, "reading " + path);
  std::string head(static_cast<size_t>(std::min<uint64_t>(file_bytes, kHeadBytes)), '\0');
  if (std::fread(head.data(), 1, head.size(), file.get()) != head.size()) {
    return parse_npy_matrix(read_binary_file(path), path);
  }
  const NpyHeader header =
      checked_header(head, file_bytes, path, 2, float32_item_bytes, "'<f4' float32");
  FloatMatrix matrix;
  matrix.rows = header.shape[0];
  matrix.cols = header.shape[1];
  matrix.values.resize(matrix.rows * matrix.cols);
  // Checked against the folder's manifest as it is read (io/output_set.hpp):
  // the bytes hashed are the bytes the matrix holds.
  check_set_member_while_reading(path, [&](Sha256* hash) {
    if (hash) hash->update(head.data(), header.data_offset);
    if (std::fseek(file.get(), static_cast<long>(header.data_offset), SEEK_SET) != 0) {
      throw IoError("cannot read " + path + ": the file ended early");
    }
    read_matrix_values(file.get(), matrix, hash, path);
  });
  return matrix;
}

FloatMatrix parse_npy_matrix(const std::string& bytes, const std::string& path) {
  const NpyHeader header =
      checked_header(bytes, bytes.size(), path, 2, float32_item_bytes, "'<f4' float32");
  FloatMatrix matrix;
  matrix.rows = header.shape[0];
  matrix.cols = header.shape[1];
  matrix.values.resize(matrix.rows * matrix.cols);
  if (!matrix.values.empty()) {
    std::memcpy(matrix.values.data(), bytes.data() + header.data_offset,
                matrix.values.size() * sizeof(float));
  }
  check_finite_matrix(matrix, path);
  return matrix;
}

std::vector<int64_t> read_npy_integers(const std::string& path) {
  return parse_npy_integers(read_binary_file(path), path);
}

std::vector<int64_t> parse_npy_integers(const std::string& bytes, const std::string& path) {
  const NpyHeader header = checked_header(bytes, bytes.size(), path, 1, integer_item_bytes,
                                          "a little-endian integer type such as '<i4'");
  const size_t item_bytes = integer_item_bytes(header.descr);
  std::vector<int64_t> values(header.shape[0]);
  const char* data = bytes.data() + header.data_offset;
  for (size_t i = 0; i < values.size(); ++i) {
    values[i] = load_integer(data + i * item_bytes, header.descr[1], item_bytes, path);
  }
  return values;
}

std::vector<int32_t> read_npy_labels(const std::string& path, int64_t classes) {
  const std::vector<int64_t> values = read_npy_integers(path);
  std::vector<int32_t> labels(values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    // Checked in 64 bits, before narrowing: 2^32 + 3 must not become class 3.
    if (values[i] < 0 || values[i] >= classes) {
      throw IoError(path + ": label " + std::to_string(values[i]) + " at index " +
                    std::to_string(i) + " is not a class 0.." + std::to_string(classes - 1));
    }
    labels[i] = static_cast<int32_t>(values[i]);
  }
  return labels;
}

}  // namespace cae
