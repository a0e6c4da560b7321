// The ABI 1.3 page-locked host memory, when the backend provides it: both
// members or neither; host_alloc refuses 0 bytes, a NULL out and a NULL
// context (leaving *out NULL); its memory is aligned to 64 bytes and carries
// tensor_upload / tensor_download bit for bit at the model's real transfer
// sizes (a batch of 256 images in, 256 latent maps out) and from a range that
// starts inside a block; host_free ignores NULL and foreign pointers; and a
// context destroyed with blocks still allocated frees them without a crash
// (compute-sanitizer and ASan see leaks: tests/gpu/run-sanitizers.sh).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "checks.hpp"
#include "device_data.hpp"
#include "random_data.hpp"
#include "report.hpp"
#include "suite.hpp"

namespace conformance {
namespace {

const char* kOp = "host memory";

// A block of `count` floats from host_alloc, freed on scope exit.
struct Block {
  cae_context owner = nullptr;
  float* data = nullptr;
  Block(cae_context context, size_t count) : owner(context) {
    void* raw = nullptr;
    if (table().host_alloc(context, count * sizeof(float), &raw) == CAE_STATUS_OK) {
      data = static_cast<float*>(raw);
    }
  }
  ~Block() { table().host_free(owner, data); }
  Block(const Block&) = delete;
  Block& operator=(const Block&) = delete;
};

void check_refusals() {
  const cae_backend_table& t = table();
  void* out = &out;  // not NULL: the member must clear it
  record(t.host_alloc(ctx().handle(), 0, &out) == CAE_STATUS_INVALID_ARGUMENT && out == nullptr,
         kOp, "host_alloc of 0 bytes", "refused, *out NULL");
  record(t.host_alloc(ctx().handle(), 64, nullptr) == CAE_STATUS_INVALID_ARGUMENT, kOp,
         "host_alloc with out NULL", "refused");
  out = &out;
  record(t.host_alloc(nullptr, 64, &out) != CAE_STATUS_OK && out == nullptr, kOp,
         "host_alloc with ctx NULL", "refused, *out NULL");
  t.host_free(ctx().handle(), nullptr);
  float foreign[16] = {};
  t.host_free(ctx().handle(), foreign);
  record(foreign[0] == 0.0f, kOp, "host_free of NULL and of a foreign pointer", "ignored");
}

// Uploads `dims` from a block (at `offset` floats into it) and downloads into
// another: the values must come back bit for bit.
void check_round_trip(const Dims& dims, size_t offset) {
  const size_t count = size_t(count_of(dims));
  Block in(ctx().handle(), count + offset), out(ctx().handle(), count);
  const std::string what = "round trip " + dims_str(dims) + (offset ? " from inside a block" : "");
  if (!record(in.data && out.data, kOp, what, "host_alloc of both blocks")) {
    explain(table().last_error(ctx().handle()));
    return;
  }
  record(reinterpret_cast<uintptr_t>(in.data) % 64 == 0, kOp, "alignment", "64 bytes");
  Random random = random_for(kOp, what);
  const std::vector<float> values = random.uniform(int64_t(count), -4.0f, 4.0f);
  std::memcpy(in.data + offset, values.data(), count * sizeof(float));
  std::fill(out.data, out.data + count, -7.0f);
  cae::Tensor tensor = ctx().alloc(dims);
  tensor.upload(in.data + offset, count);
  tensor.download(out.data, count);
  const bool same = std::memcmp(out.data, values.data(), count * sizeof(float)) == 0;
  record(same, kOp, what, same ? "bit for bit" : "the values differ");
}

void check_destroy_with_blocks() {
  const cae_backend_table& t = table();
  cae_context other = nullptr;
  if (create_suite_context(&other) != CAE_STATUS_OK || !other) {
    record(false, kOp, "second context", t.last_error(nullptr));
    return;
  }
  void* first = nullptr;
  void* second = nullptr;
  const bool made = t.host_alloc(other, 1 << 20, &first) == CAE_STATUS_OK &&
                    t.host_alloc(other, 4096, &second) == CAE_STATUS_OK && first && second;
  if (made) std::memset(first, 1, 1 << 20);
  t.host_free(other, second);
  t.destroy(other);  // `first` is still allocated: destroy frees it
  record(made, kOp, "destroy with a block still allocated", "returned");
}

}  // namespace

void check_host_memory() {
  const cae_backend_table& t = table();
  const bool has_alloc = CAE_TABLE_HAS(&t, host_alloc), has_free = CAE_TABLE_HAS(&t, host_free);
  if (!has_alloc && !has_free) {
    note(kOp, "host-memory members", "not provided (optional, ABI 1.3)");
    return;
  }
  if (!record(has_alloc && has_free, kOp, "members",
              has_alloc && has_free ? "both" : "incomplete: provide both or neither")) {
    return;
  }
  guarded(kOp, "refusals", check_refusals);
  guarded(kOp, "small round trip", [] { check_round_trip({3, 5, 4, 6}, 0); });
  guarded(kOp, "round trip from inside a block", [] { check_round_trip({2, 16, 8, 8}, 3); });
  // The model's transfers: a batch of images in, the latent maps out.
  guarded(kOp, "image batch", [] { check_round_trip({256, 3, 32, 32}, 0); });
  guarded(kOp, "latent batch", [] { check_round_trip({256, 128, 8, 8}, 0); });
  guarded(kOp, "destroy", check_destroy_with_blocks);
}

}  // namespace conformance
