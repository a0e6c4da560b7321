#include "backend_error.hpp"

namespace cae {

const char* status_name(cae_status status) {
  switch (status) {
    case CAE_STATUS_OK: return "ok";
    case CAE_STATUS_INVALID_ARGUMENT: return "invalid argument";
    case CAE_STATUS_UNSUPPORTED: return "unsupported";
    case CAE_STATUS_OUT_OF_MEMORY: return "out of memory";
    case CAE_STATUS_DEVICE_ERROR: return "device error";
    case CAE_STATUS_UNAVAILABLE: return "unavailable";
    case CAE_STATUS_INTERNAL: return "internal error";
  }
  return "unknown status";
}

}  // namespace cae
