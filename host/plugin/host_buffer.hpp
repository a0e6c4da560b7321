// Host memory for the floats that cross to and from a backend's device.
//
// Why: a copy from ordinary (pageable) memory goes through the driver's bounce
// buffers, about 3.5x slower than one from page-locked memory (H200, PCIe 5:
// 14-15 against 48-53 GB/s). A backend that offers ABI 1.3's
// host_alloc hands out page-locked memory; this buffer takes it when it can
// and ordinary memory otherwise, so every caller is written once.
#pragma once

#include <cstddef>
#include <memory>

namespace cae {

class Context;

enum class HostMemory {
  kPinnedWhenOffered,  // the backend's page-locked memory if it has host_alloc, else ordinary
  kPageable,           // ordinary memory (to measure what page-locked memory buys)
};

// Gives a HostBuffer's memory back to whoever handed it out: the context's
// host_free for page-locked blocks, delete[] for ordinary memory.
struct HostBufferRelease {
  Context* owner = nullptr;  // set only for page-locked memory
  void operator()(float* data) const noexcept;
};

// `count` floats, uninitialised. The context must outlive the buffer (page-
// locked memory belongs to it). Move-only.
class HostBuffer {
 public:
  HostBuffer() = default;
  HostBuffer(Context& context, size_t count, HostMemory kind = HostMemory::kPinnedWhenOffered);
  HostBuffer(HostBuffer&& other) noexcept;
  HostBuffer& operator=(HostBuffer&& other) noexcept;

  float* data() { return memory_.get(); }
  const float* data() const { return memory_.get(); }
  size_t size() const { return size_; }
  // True when the memory came from the backend's host_alloc.
  bool pinned() const { return memory_ && memory_.get_deleter().owner != nullptr; }

 private:
  std::unique_ptr<float[], HostBufferRelease> memory_;
  size_t size_ = 0;
};

}  // namespace cae
