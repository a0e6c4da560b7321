#include "cpu_blas_memory.hpp"

#include <sys/mman.h>

#include <atomic>
#include <mutex>
#include <string>

#include "plugin_support.hpp"

namespace cae_cpu {

namespace {

// OpenBLAS 0.3 maps BUFFER_SIZE (128 MiB on x86-64) plus a page per buffer;
// a margin above that keeps room for the rest of the GEMM's own needs.
constexpr uint64_t kBytesPerBuffer = (uint64_t(128) << 20) + (uint64_t(16) << 20);

std::mutex g_mutex;
int g_in_use = 0;      // threads inside guarded regions now
int g_buffers = 0;     // the most that ever were, so buffers OpenBLAS has mapped

// True when `bytes` of address space can be mapped now (and it is released
// again at once): the mapping OpenBLAS is about to make will then succeed.
bool address_space_free(uint64_t bytes) {
  void* probe = ::mmap(nullptr, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (probe == MAP_FAILED) return false;
  ::munmap(probe, bytes);
  return true;
}

}  // namespace

BlasBuffers::BlasBuffers(int threads, const char* op) : threads_(threads < 1 ? 1 : threads) {
  const std::lock_guard<std::mutex> hold(g_mutex);
  const int wanted = g_in_use + threads_;
  if (wanted > g_buffers) {
    const uint64_t bytes = uint64_t(wanted - g_buffers) * kBytesPerBuffer;
    if (!address_space_free(bytes)) {
      cae_plugin::fail(CAE_STATUS_OUT_OF_MEMORY,
                       std::string(op) + ": cannot allocate " + cae_plugin::format_bytes(bytes) +
                           " for OpenBLAS's buffers of " + std::to_string(wanted - g_buffers) +
                           " more threads (a memory or address-space limit?)");
    }
    g_buffers = wanted;
  }
  g_in_use = wanted;
}

BlasBuffers::~BlasBuffers() {
  const std::lock_guard<std::mutex> hold(g_mutex);
  g_in_use -= threads_;
}

}  // namespace cae_cpu
