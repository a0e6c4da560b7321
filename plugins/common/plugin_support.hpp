// Code every C++ backend shares: error capture at the ABI boundary, the
// thread-local error for context-less calls, and tensor shapes.
//
// Plugins only. The host never includes this file (host and plugins meet in
// api/ alone); the host has its own C++ wrapper in host/plugin/.
#pragma once

#include <cae/backend.h>

#include <cstdint>
#include <cstring>
#include <exception>
#include <new>
#include <string>

namespace cae_plugin {

// An error that carries the status it maps to at the ABI boundary.
class Error : public std::exception {
 public:
  Error(cae_status status, std::string message) : status_(status), message_(std::move(message)) {}
  cae_status status() const noexcept { return status_; }
  const char* what() const noexcept override { return message_.c_str(); }

 private:
  cae_status status_;
  std::string message_;
};

[[noreturn]] inline void fail(cae_status status, const std::string& message) {
  throw Error(status, message);
}

// Argument checks: a false condition is the caller's fault.
inline void require(bool condition, const std::string& message) {
  if (!condition) fail(CAE_STATUS_INVALID_ARGUMENT, message);
}

// The same check for hot paths: the message expression is only evaluated
// (and its strings only built) when the condition fails.
#define CAE_REQUIRE(condition, message)                                            \
  do {                                                                             \
    if (!(condition)) ::cae_plugin::fail(CAE_STATUS_INVALID_ARGUMENT, (message));  \
  } while (0)

// Human-readable byte counts for out-of-memory messages ("1.50 GiB (1610612736 bytes)").
std::string format_bytes(uint64_t bytes);

// Dense shape of a tensor as the host sees it (NCHW / OIHW / row-major).
struct Shape {
  int32_t ndim = 0;
  int64_t dims[CAE_MAX_DIMS] = {0, 0, 0, 0};

  int64_t count() const {
    int64_t n = 1;
    for (int32_t i = 0; i < ndim; ++i) n *= dims[i];
    return n;
  }
  int64_t operator[](int i) const { return dims[i]; }
  std::string str() const;  // "[64,3,32,32]"
};

// Validates tensor_alloc's arguments and returns the shape.
Shape make_shape(int32_t ndim, const int64_t* dims);

// Every context type derives from this so that guard() can store messages.
struct ContextBase {
  std::string last_error;
  virtual ~ContextBase() = default;
};

// Message slot for calls without a context (probe, create), one per thread.
std::string& thread_error();

// last_error(ctx) for any backend.
inline const char* last_error_of(const ContextBase* ctx) {
  return ctx ? ctx->last_error.c_str() : thread_error().c_str();
}

// Runs `body` and converts every exception into a status plus a message, so
// nothing ever unwinds across the C ABI. ctx may be NULL (probe/create).
template <class Body>
cae_status guard(ContextBase* ctx, Body&& body) noexcept {
  std::string* slot = nullptr;
  try {
    slot = ctx ? &ctx->last_error : &thread_error();
    body();
    return CAE_STATUS_OK;
  } catch (const Error& e) {
    if (slot) *slot = e.what();
    return e.status();
  } catch (const std::bad_alloc&) {
    if (slot) *slot = "host out of memory (std::bad_alloc)";
    return CAE_STATUS_OUT_OF_MEMORY;
  } catch (const std::exception& e) {
    if (slot) *slot = std::string("internal error: ") + e.what();
    return CAE_STATUS_INTERNAL;
  } catch (...) {
    if (slot) *slot = "internal error: unknown exception";
    return CAE_STATUS_INTERNAL;
  }
}

// Copies a string into a fixed char array, always NUL-terminated.
template <size_t N>
void copy_string(char (&dst)[N], const std::string& src) {
  size_t n = src.size() < N - 1 ? src.size() : N - 1;
  std::memcpy(dst, src.data(), n);
  dst[n] = '\0';
}

// Writes `value` into an out-struct whose caller-declared struct_size may be
// smaller than ours (an older host): only the members that fit are written.
template <class Struct>
void write_out_struct(Struct* out, const Struct& value) {
  require(out != nullptr, "output struct pointer is NULL");
  uint32_t caller_size = out->struct_size;
  require(caller_size >= sizeof(uint32_t), "output struct_size is smaller than its own field");
  size_t n = caller_size < sizeof(Struct) ? caller_size : sizeof(Struct);
  std::memcpy(out, &value, n);
  out->struct_size = caller_size;
}

}  // namespace cae_plugin
