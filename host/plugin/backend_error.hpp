// The exception the host's RAII wrapper throws for a failed ABI call: the
// status, the backend's own message (last_error) and which call failed.
#pragma once

#include <cae/backend.h>

#include <stdexcept>
#include <string>

namespace cae {

const char* status_name(cae_status status);

class BackendError : public std::runtime_error {
 public:
  BackendError(cae_status status, const std::string& message)
      : std::runtime_error(message), status_(status) {}
  cae_status status() const noexcept { return status_; }

 private:
  cae_status status_;
};

}  // namespace cae
