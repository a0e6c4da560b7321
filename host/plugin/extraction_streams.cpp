#include "extraction_streams.hpp"

namespace cae {

int extraction_streams(const Context& context, int requested) {
  if (requested > 0) return requested;
  return context.has_host_memory() ? kStreamsWithHostMemory : 1;
}

ExtractionContexts::ExtractionContexts(const std::vector<Context*>& contexts, int streams)
    : all_(contexts) {
  for (int extra = 1; extra < streams; ++extra) {
    for (const Context* context : contexts) {
      companions_.push_back(std::make_unique<Context>(context->table(), context->device_index(),
                                                      context->thread_count(),
                                                      context->options()));
      all_.push_back(companions_.back().get());
    }
  }
}

}  // namespace cae
