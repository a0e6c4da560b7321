// DeviceGroup: the backend's collectives (cpu, ABI 1.1) and the host exchange
// (any backend, ABI 1.0 included) give every member the scaled sum, and the
// same numbers.
#include "plugin/device_group.hpp"

#include <doctest/doctest.h>

#include "backends.hpp"

namespace cae {
namespace {

// Member m's tensor i holds values that differ by member, tensor and element,
// some of them not exactly representable sums (0.1 steps).
std::vector<std::vector<float>> member_values(size_t members, const std::vector<int64_t>& counts,
                                              size_t tensor) {
  std::vector<std::vector<float>> values(members);
  for (size_t m = 0; m < members; ++m) {
    for (int64_t e = 0; e < counts[tensor]; ++e) {
      values[m].push_back(0.1f * float(m + 1) + 0.37f * float(e) - 1.5f * float(tensor));
    }
  }
  return values;
}

// Runs one all_reduce_sum over `members` contexts of `table` and returns what
// every member holds afterwards: result[m][i] = tensor i of member m.
std::vector<std::vector<std::vector<float>>> reduce(const cae_backend_table& table, int members,
                                                    float scale, bool force_host,
                                                    bool* used_backend) {
  const std::vector<int64_t> counts{5, 12, 1};
  auto contexts = test::make_contexts(table, members);
  std::vector<std::vector<Tensor>> tensors(static_cast<size_t>(members));
  std::vector<std::vector<Tensor*>> lists(static_cast<size_t>(members));
  for (size_t i = 0; i < counts.size(); ++i) {
    auto values = member_values(size_t(members), counts, i);
    for (size_t m = 0; m < size_t(members); ++m) {
      tensors[m].push_back(contexts[m]->alloc({counts[i]}));
      tensors[m].back().upload(values[m]);
    }
  }
  for (size_t m = 0; m < size_t(members); ++m) {
    for (Tensor& t : tensors[m]) lists[m].push_back(&t);
  }
  DeviceGroup group(test::pointers(contexts), force_host);
  *used_backend = group.backend_collectives();
  group.all_reduce_sum(lists, scale);
  std::vector<std::vector<std::vector<float>>> result(static_cast<size_t>(members));
  for (size_t m = 0; m < size_t(members); ++m) {
    for (Tensor& t : tensors[m]) result[m].push_back(t.download());
  }
  return result;
}

TEST_CASE("every member gets scale * the sum over members, on both paths") {
  for (bool force_host : {false, true}) {
    CAPTURE(force_host);
    bool used_backend = false;
    const auto result = reduce(test::cpu_table(), 3, 0.25f, force_host, &used_backend);
    CHECK(used_backend == !force_host);
    const std::vector<int64_t> counts{5, 12, 1};
    for (size_t i = 0; i < counts.size(); ++i) {
      auto values = member_values(3, counts, i);
      for (int64_t e = 0; e < counts[i]; ++e) {
        const float expected = (0.0f + values[0][e] + values[1][e] + values[2][e]) * 0.25f;
        for (size_t m = 0; m < 3; ++m) CHECK(result[m][i][size_t(e)] == expected);
      }
    }
  }
}

TEST_CASE("the cpu backend's collectives and the host exchange agree bit for bit") {
  bool a = false, b = false;
  CHECK(reduce(test::cpu_table(), 2, 0.5f, false, &a) ==
        reduce(test::cpu_table(), 2, 0.5f, true, &b));
  CHECK(a);
  CHECK_FALSE(b);
}

TEST_CASE("an ABI 1.0 table (no group members) gets the host exchange") {
  bool used_backend = true;
  const auto from_1_0 = reduce(test::cpu_table_as_1_0(), 2, 0.5f, false, &used_backend);
  CHECK_FALSE(used_backend);
  bool unused = false;
  CHECK(from_1_0 == reduce(test::cpu_table(), 2, 0.5f, false, &unused));
}

TEST_CASE("the ABI 1.0 stub plugin loads and sums across two contexts through the host") {
  const cae_backend_table& stub = test::stub_1_0_table();
  CHECK(stub.abi_minor == 0);
  CHECK(stub.struct_size == CAE_BACKEND_TABLE_SIZE_1_0);
  bool used_backend = true;
  const auto result = reduce(stub, 2, 1.0f, false, &used_backend);
  CHECK_FALSE(used_backend);
  auto values = member_values(2, {5, 12, 1}, 1);
  for (size_t e = 0; e < 12; ++e) {
    CHECK(result[0][1][e] == values[0][e] + values[1][e]);
    CHECK(result[1][1][e] == result[0][1][e]);
  }
}

TEST_CASE("mismatched lists are refused with a message") {
  auto contexts = test::make_contexts(test::cpu_table(), 2);
  Tensor a = contexts[0]->alloc({4}), b = contexts[1]->alloc({5});
  DeviceGroup group(test::pointers(contexts));
  CHECK_THROWS_WITH_AS(group.all_reduce_sum({{&a}, {&b}}, 1.0f),
                       doctest::Contains("differs in shape"), std::invalid_argument);
  CHECK_THROWS_AS(group.all_reduce_sum({{&a}}, 1.0f), std::invalid_argument);
}

}  // namespace
}  // namespace cae
