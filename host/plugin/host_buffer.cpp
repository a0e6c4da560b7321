#include "host_buffer.hpp"

#include <utility>

#include "context.hpp"

namespace cae {

const char* host_memory_name(HostMemory kind) {
  return kind == HostMemory::kPageable ? "pageable" : "pinned";
}

HostBuffer::HostBuffer(Context& context, size_t count, HostMemory kind) : size_(count) {
  if (count == 0) return;
  if (kind == HostMemory::kPinnedWhenOffered && context.has_host_memory()) {
    // A failure here is reported, not hidden behind ordinary memory: the
    // caller asked for the fast path and a full pinned pool is worth knowing.
    data_ = static_cast<float*>(context.host_alloc(count * sizeof(float)));
    owner_ = &context;
  } else {
    ordinary_.reset(new float[count]);
    data_ = ordinary_.get();
  }
}

HostBuffer::~HostBuffer() { release(); }

HostBuffer::HostBuffer(HostBuffer&& other) noexcept
    : owner_(std::exchange(other.owner_, nullptr)),
      data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)),
      ordinary_(std::move(other.ordinary_)) {}

HostBuffer& HostBuffer::operator=(HostBuffer&& other) noexcept {
  if (this != &other) {
    release();
    owner_ = std::exchange(other.owner_, nullptr);
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
    ordinary_ = std::move(other.ordinary_);
  }
  return *this;
}

void HostBuffer::release() noexcept {
  if (owner_) owner_->host_free(data_);
  owner_ = nullptr;
  data_ = nullptr;
  size_ = 0;
  ordinary_.reset();
}

}  // namespace cae
