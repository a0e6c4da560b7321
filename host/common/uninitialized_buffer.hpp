// A std::vector whose resize and size constructor leave new elements of a
// trivial type uninitialised. For buffers of gigabytes that are filled right
// after (support vectors copied on every core, a file read into memory),
// value-initialising them first is one more pass over every page, made on
// one core, before the real writes. Only the allocator differs from
// std::vector<T>: equal contents compare equal, and data() and size() are
// what any caller of a float range takes.
#pragma once

#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace cae {

template <class T>
struct UninitializedAllocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = UninitializedAllocator<U>;
  };
  UninitializedAllocator() = default;
  template <class U>
  UninitializedAllocator(const UninitializedAllocator<U>&) noexcept {}

  // Default-initialisation: nothing for a trivial type.
  template <class U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

template <class T>
using UninitializedBuffer = std::vector<T, UninitializedAllocator<T>>;

}  // namespace cae
