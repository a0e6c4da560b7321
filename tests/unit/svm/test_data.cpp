#include "test_data.hpp"

#include <cmath>
#include <cstdlib>
#include <memory>
#include <random>

#include "../build_tree_registry.hpp"
#include "plugin/registry.hpp"

namespace cae::svm::test {

namespace {

double normal(std::mt19937_64& rng) {
  // Box-Muller on raw generator output: the same numbers on every platform.
  const double u1 = (static_cast<double>(rng() >> 11) + 1.0) / 9007199254740993.0;
  const double u2 = static_cast<double>(rng() >> 11) / 9007199254740992.0;
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
}

}  // namespace

FeatureSet clustered(int classes, int per_class, int dim, double spread, uint64_t seed,
                     uint64_t sample) {
  std::mt19937_64 centre_rng(seed);
  std::vector<double> centres(static_cast<size_t>(classes * dim));
  for (double& c : centres) c = spread * normal(centre_rng);

  std::mt19937_64 rng(seed * 7919 + sample + 1);
  FeatureSet set;
  set.rows = int64_t{classes} * per_class;
  set.dim = dim;
  std::vector<int64_t> order(static_cast<size_t>(set.rows));
  for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int64_t>(i);
  for (size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[rng() % i]);
  set.values.resize(static_cast<size_t>(set.rows * dim));
  set.labels.resize(static_cast<size_t>(set.rows));
  for (int64_t i = 0; i < set.rows; ++i) {
    const int c = static_cast<int>(i / per_class);
    const int64_t at = order[static_cast<size_t>(i)];
    set.labels[static_cast<size_t>(at)] = 10 * (c + 1);
    for (int d = 0; d < dim; ++d) {
      set.values[static_cast<size_t>(at * dim + d)] =
          static_cast<float>(centres[static_cast<size_t>(c * dim + d)] + normal(rng) + 3.0);
    }
  }
  return set;
}

namespace {

const Registry& test_registry() { return cae::test::build_tree_registry(); }

}  // namespace

Context& cpu_context() {
  static Context context(test_registry().select("cpu").table(), 0, 2);
  return context;
}

namespace {
cae_status malloc_host(cae_context, size_t bytes, void** out) {
  *out = std::malloc(bytes);
  return *out ? CAE_STATUS_OK : CAE_STATUS_OUT_OF_MEMORY;
}
void free_host(cae_context, void* ptr) { std::free(ptr); }
}  // namespace

Context& cpu_with_host_memory() {
  static const cae_backend_table table = [] {
    cae_backend_table copy = cpu_context().table();
    copy.host_alloc = malloc_host;
    copy.host_free = free_host;
    return copy;
  }();
  static Context context(table, 0, 2);
  return context;
}

std::unique_ptr<Context> new_cpu_context() {
  return std::make_unique<Context>(test_registry().select("cpu").table(), 0, 2);
}

LibsvmRows to_libsvm(const FeatureSet& set, const Standardizer& standardizer) {
  LibsvmRows out;
  std::vector<float> row(static_cast<size_t>(set.dim));
  for (int64_t i = 0; i < set.rows; ++i) {
    copy_standardized_rows(set, standardizer, i, 1, row.data());
    std::vector<svm_node> nodes;
    for (int64_t d = 0; d < set.dim; ++d) {
      if (row[static_cast<size_t>(d)] != 0.0f) {
        nodes.push_back({static_cast<int>(d + 1), row[static_cast<size_t>(d)]});
      }
    }
    nodes.push_back({-1, 0.0});
    out.rows.push_back(std::move(nodes));
    out.targets.push_back(set.labels.empty() ? 0.0 : set.labels[static_cast<size_t>(i)]);
  }
  for (auto& nodes : out.rows) out.pointers.push_back(nodes.data());
  return out;
}

double agreement(const std::vector<int32_t>& a, const std::vector<int32_t>& b) {
  if (a.size() != b.size() || a.empty()) return 0.0;
  size_t same = 0;
  for (size_t i = 0; i < a.size(); ++i) same += a[i] == b[i];
  return static_cast<double>(same) / static_cast<double>(a.size());
}

}  // namespace cae::svm::test
