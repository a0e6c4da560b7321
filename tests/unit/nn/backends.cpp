#include "backends.hpp"

#include <map>
#include <random>
#include <string>

#include "data/cifar_format.hpp"
#include "data/synthetic_images.hpp"
#include "plugin/registry.hpp"

namespace cae::test {
namespace {

const Registry& registry_of(const std::string& dir) {
  static std::map<std::string, std::unique_ptr<Registry>> registries;
  auto& slot = registries[dir];
  if (!slot) {
    DiscoveryOptions options;
    options.plugin_dirs = {dir};
    options.use_environment = false;
    options.use_default_dirs = false;
    slot = std::make_unique<Registry>(Registry::discover(options));
  }
  return *slot;
}

}  // namespace

const cae_backend_table& cpu_table() {
  return registry_of(CAE_TEST_PLUGIN_DIR).select("cpu").table();
}

const cae_backend_table& cpu_table_as_1_0() {
  static const cae_backend_table table = [] {
    cae_backend_table t = cpu_table();
    t.struct_size = static_cast<uint32_t>(CAE_BACKEND_TABLE_SIZE_1_0);
    t.abi_minor = 0;
    // Beyond struct_size: the host must neither read nor call these.
    t.group_create = nullptr;
    t.group_all_reduce_sum = nullptr;
    t.group_destroy = nullptr;
    return t;
  }();
  return table;
}

const cae_backend_table& stub_1_0_table() {
  return registry_of(CAE_TEST_STUB_DIR).select("abi10").table();
}

std::vector<std::unique_ptr<Context>> make_contexts(const cae_backend_table& table, int count) {
  std::vector<std::unique_ptr<Context>> contexts;
  for (int i = 0; i < count; ++i) contexts.push_back(std::make_unique<Context>(table, i, 1));
  return contexts;
}

std::vector<Context*> pointers(const std::vector<std::unique_ptr<Context>>& contexts) {
  std::vector<Context*> all;
  for (const auto& c : contexts) all.push_back(c.get());
  return all;
}

ImageSet small_image_set(size_t count, uint64_t seed) {
  ImageSet set;
  set.pixels.resize(count * set.image_bytes());
  std::mt19937_64 rng(seed);
  for (size_t i = 0; i < count; ++i) {
    set.labels.push_back(uint8_t(i % synthetic::kNumClasses));
    synthetic::render_image(i % synthetic::kNumClasses, rng,
                            set.pixels.data() + i * set.image_bytes());
  }
  return set;
}

}  // namespace cae::test
