// Several contexts on one device for feature extraction, so that one
// context's copies overlap another's compute.
//
// Why: a context has one stream (the ABI's asynchrony rules), and
// tensor_download waits for the work before it, so with one context the bus
// and the GPU take turns, and the host's own work (converting pixels, moving
// 2 GB of feature rows into ordinary memory) waits too. Contexts driven from
// threads of their own (the ABI allows it) let the copy engines and the host
// run while another context computes (`cae bench` times extraction at each
// count). Worth it only where copies
// have an engine of their own: the backends that offer page-locked host
// memory (ABI 1.3); a CPU backend would only split its threads.
#pragma once

#include <memory>
#include <vector>

#include "context.hpp"

namespace cae {

// Contexts per device with `auto` on a backend that has host_alloc: on an
// H200 the fastest measured count, with 5 and 6 no faster (docs/PERF.md).
constexpr int kStreamsWithHostMemory = 4;

// Contexts per device: `requested` when > 0, else (auto) kStreamsWithHostMemory
// for a backend with host_alloc and 1 otherwise.
int extraction_streams(const Context& context, int requested);

// The contexts an extraction runs on: each of `contexts`, followed by
// streams - 1 more on each one's device (owned by the returned object).
class ExtractionContexts {
 public:
  ExtractionContexts(const std::vector<Context*>& contexts, int streams);
  const std::vector<Context*>& all() const { return all_; }

 private:
  std::vector<std::unique_ptr<Context>> companions_;
  std::vector<Context*> all_;
};

}  // namespace cae
