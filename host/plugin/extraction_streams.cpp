#include "extraction_streams.hpp"

namespace cae {

int extraction_streams(const Context& context, int requested) {
  if (requested > 0) return requested;
  // 4: on an H200, v4 extracts 60,000 images in 0.151-0.165 s with 2
  // contexts, 0.119-0.128 s with 3 and 0.100-0.109 s with 4, four calls each
  // (run 43, docs/PERF.md "Eighth session").
  return context.has_host_memory() ? kStreamsWithHostMemory : 1;
}

ExtractionContexts::ExtractionContexts(const std::vector<Context*>& contexts, int streams)
    : all_(contexts) {
  for (int extra = 1; extra < streams; ++extra) {
    for (const Context* context : contexts) {
      companions_.push_back(std::make_unique<Context>(context->table(), context->device_index(),
                                                      context->thread_count()));
      all_.push_back(companions_.back().get());
    }
  }
}

}  // namespace cae
