// Kernel launches go through one function so that every launch is checked the
// same way (launch-configuration errors surface at once, named).
#pragma once

#include <cuda_runtime.h>

#include "cuda_support.hpp"

namespace v1 {

// Launches `kernel` on `stream` and checks the launch. `name` is a string
// literal such as "launch of conv_tile_kernel".
template <class... Params, class... Args>
void launch(const char* name, void (*kernel)(Params...), dim3 grid, dim3 block, cudaStream_t stream,
            Args... args) {
  kernel<<<grid, block, 0, stream>>>(args...);
  cae_plugin::cuda::check(cudaGetLastError(), name, __FILE__, __LINE__);
}

}  // namespace v1
