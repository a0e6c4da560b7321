// Where the linear classifier's passes over its rows run (--linear-on):
// the host's OpenBLAS, the backend's devices, or auto: the backend in use
// when it is a device with memory of its own and the rows fit in it.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <vector>

#include "plugin/context.hpp"

namespace cae::cli {

enum class LinearPlace { Host, Backend, Auto };

// The contexts the passes run on (empty: the host's OpenBLAS), of the
// backend in use (`contexts`, empty when there is none): Backend: all of
// them; Auto: all of them when each is a device with memory of its own (it
// offers page-locked host memory, ABI 1.3) and its share of `rows` x `dim`
// features and their transpose fits in its free memory, else none, said in
// one line of `log`; Host: none.
std::vector<Context*> linear_devices(LinearPlace place, const std::vector<Context*>& contexts,
                                     int64_t rows, int64_t dim, std::ostream& log);

}  // namespace cae::cli
