// The winograd tensor: dense float32 in the boundary layout (NCHW / OIHW /
// row-major), so uploads and downloads are plain copies, plus the write
// version that keys the filter-transform cache.
#pragma once

#include <cstddef>
#include <cstdint>

#include "plugin_support.hpp"

struct cae_tensor_s {
  cae_plugin::Shape shape;
  float* data = nullptr;  // device memory, shape.count() floats
  size_t bytes = 0;
  uint64_t id = 0;       // unique within the context: a freed tensor's address may come back
  uint64_t version = 0;  // changes on every write (upload, op output, optimizer step)
};
