#include "host_buffer.hpp"

#include <utility>

#include "context.hpp"

namespace cae {

HostBuffer::HostBuffer(Context& context, size_t count, HostMemory kind) : size_(count) {
  if (count == 0) return;
  if (kind == HostMemory::kPinnedWhenOffered && context.has_host_memory()) {
    // A failure here is reported, not hidden behind ordinary memory: the
    // caller asked for the fast path and a full pinned pool is worth knowing.
    memory_ = {static_cast<float*>(context.host_alloc(count * sizeof(float))),
               HostBufferRelease{&context}};
  } else {
    memory_ = {new float[count], HostBufferRelease{}};
  }
}

// A moved-from buffer is empty: no memory and size 0.
HostBuffer::HostBuffer(HostBuffer&& other) noexcept
    : memory_(std::move(other.memory_)), size_(std::exchange(other.size_, 0)) {}

HostBuffer& HostBuffer::operator=(HostBuffer&& other) noexcept {
  memory_ = std::move(other.memory_);
  size_ = std::exchange(other.size_, 0);
  return *this;
}

void HostBufferRelease::operator()(float* data) const noexcept {
  if (owner) {
    owner->host_free(data);
  } else {
    delete[] data;
  }
}

}  // namespace cae
