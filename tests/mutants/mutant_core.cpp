#include "mutant_core.hpp"

#include <dlfcn.h>

#include <cstdio>
#include <mutex>
#include <stdexcept>
#include <string>
#include <unordered_map>

#ifndef MUTANT_BASE_BACKEND
#error "MUTANT_BASE_BACKEND (path of the cpu backend library) must be defined"
#endif
#ifndef MUTANT_ID
#error "MUTANT_ID (e.g. \"relu-ge\") must be defined"
#endif

namespace mutant {
namespace {

struct BaseFailure {
  cae_status status;
};

const cae_backend_table* load_base() {
  // Never closed: the table's members must outlive every caller.
  void* library = dlopen(MUTANT_BASE_BACKEND, RTLD_NOW | RTLD_LOCAL);
  if (!library) throw std::runtime_error(std::string("dlopen: ") + dlerror());
  auto entry = reinterpret_cast<cae_backend_entry_fn>(dlsym(library, CAE_BACKEND_ENTRY_SYMBOL));
  if (!entry) throw std::runtime_error(std::string("dlsym: ") + dlerror());
  const cae_backend_table* table = entry(CAE_ABI_MAJOR);
  if (!table) throw std::runtime_error("no table for ABI major " + std::to_string(CAE_ABI_MAJOR));
  return table;
}

// ---- live tensors and their dims -------------------------------------------

struct LiveTensor {
  cae_context ctx;
  Dims dims;
};

std::mutex& registry_mutex() {
  static std::mutex mutex;
  return mutex;
}

std::unordered_map<cae_tensor, LiveTensor>& registry() {
  static std::unordered_map<cae_tensor, LiveTensor> tensors;
  return tensors;
}

cae_status tracking_alloc(cae_context ctx, int32_t ndim, const int64_t* dims, cae_tensor* out) {
  const cae_status status = base().tensor_alloc(ctx, ndim, dims, out);
  if (status == CAE_STATUS_OK && out && *out) {
    std::lock_guard<std::mutex> lock(registry_mutex());
    registry()[*out] = LiveTensor{ctx, Dims(dims, dims + ndim)};
  }
  return status;
}

void tracking_free(cae_context ctx, cae_tensor t) {
  {
    std::lock_guard<std::mutex> lock(registry_mutex());
    registry().erase(t);
  }
  base().tensor_free(ctx, t);
}

void tracking_destroy(cae_context ctx) {
  {
    std::lock_guard<std::mutex> lock(registry_mutex());
    for (auto it = registry().begin(); it != registry().end();) {
      it = it->second.ctx == ctx ? registry().erase(it) : std::next(it);
    }
  }
  base().destroy(ctx);
}

// Room behind the table: a mutant may claim a struct_size larger than the
// table it was compiled with, and a reader trusting it must not run off the end.
struct TableStorage {
  cae_backend_table table;
  unsigned char beyond[64];
};

TableStorage make_table() {
  TableStorage storage{};
  storage.table = base();
  storage.table.name = "mutant-" MUTANT_ID;
  storage.table.version = "0.0.0";
  storage.table.description =
      "cpu backend with one deliberate bug (" MUTANT_ID "), for the conformance suite's own test";
  storage.table.tensor_alloc = tracking_alloc;
  storage.table.tensor_free = tracking_free;
  storage.table.destroy = tracking_destroy;
  mutate(storage.table);
  return storage;
}

std::vector<float> download_all(cae_context ctx, cae_tensor t, const Dims& dims) {
  std::vector<float> values(count_of(dims));
  check(base().tensor_download(ctx, t, values.data(), values.size()));
  return values;
}

}  // namespace

const cae_backend_table& base() {
  static const cae_backend_table* table = load_base();
  return *table;
}

bool tracked(std::initializer_list<cae_tensor> tensors) {
  std::lock_guard<std::mutex> lock(registry_mutex());
  for (cae_tensor t : tensors) {
    if (registry().count(t) == 0) return false;
  }
  return true;
}

Dims dims_of(cae_tensor t) {
  std::lock_guard<std::mutex> lock(registry_mutex());
  const auto found = registry().find(t);
  if (found == registry().end()) throw std::logic_error("tensor not allocated by this mutant");
  return found->second.dims;
}

size_t count_of(const Dims& dims) {
  size_t count = 1;
  for (int64_t d : dims) count *= static_cast<size_t>(d);
  return count;
}

void check(cae_status status) {
  if (status != CAE_STATUS_OK) throw BaseFailure{status};
}

std::vector<float> download(cae_context ctx, cae_tensor t) {
  return download_all(ctx, t, dims_of(t));
}

void upload(cae_context ctx, cae_tensor t, const std::vector<float>& values) {
  check(base().tensor_upload(ctx, t, values.data(), values.size()));
}

Scratch::Scratch(cae_context ctx, const Dims& dims) : ctx_(ctx), dims_(dims) {
  check(base().tensor_alloc(ctx, static_cast<int32_t>(dims.size()), dims.data(), &tensor_));
}

Scratch::Scratch(cae_context ctx, const Dims& dims, const std::vector<float>& values)
    : Scratch(ctx, dims) {
  check(base().tensor_upload(ctx, tensor_, values.data(), values.size()));
}

Scratch::~Scratch() { base().tensor_free(ctx_, tensor_); }

std::vector<float> Scratch::download() const { return download_all(ctx_, tensor_, dims_); }

cae_status run(const std::function<void()>& body) {
  try {
    body();
    return CAE_STATUS_OK;
  } catch (const BaseFailure& failure) {
    return failure.status;
  } catch (...) {
    return CAE_STATUS_INTERNAL;
  }
}

}  // namespace mutant

extern "C" CAE_BACKEND_EXPORT const cae_backend_table* cae_backend_get_table(
    uint32_t host_abi_major) {
  if (host_abi_major != CAE_ABI_MAJOR) return nullptr;
  try {
    static const mutant::TableStorage storage = mutant::make_table();
    return &storage.table;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mutant-%s: cannot load the cpu backend %s: %s\n", MUTANT_ID,
                 MUTANT_BASE_BACKEND, e.what());
    return nullptr;
  }
}
