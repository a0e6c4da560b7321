#include "svm/pair_workspace.hpp"

#include <doctest/doctest.h>

#include <cstring>

#include "svm/svm_error.hpp"

using namespace cae::svm;

TEST_CASE("PairWorkspace turns the kernel written at its end into libsvm rows in place") {
  PairWorkspace workspace(9, SolverKind::Libsvm);
  CHECK(workspace.bytes() == 9 * 11 * sizeof(svm_node));
  for (int64_t l : {9, 7, 1}) {  // full capacity, then smaller problems in the same memory
    float* kernel = workspace.kernel(l);
    for (int64_t i = 0; i < l * l; ++i) {
      const float value = static_cast<float>(i) + 0.5f;
      std::memcpy(kernel + i, &value, sizeof value);
    }
    workspace.convert_to_nodes(l);
    for (int64_t r = 0; r < l; ++r) {
      const svm_node* row = workspace.nodes() + r * (l + 2);
      CHECK(row[0].index == 0);
      CHECK(row[0].value == static_cast<double>(r + 1));
      for (int64_t c = 0; c < l; ++c) {
        CHECK(row[c + 1].index == c + 1);
        CHECK(row[c + 1].value == static_cast<double>(r * l + c) + 0.5);
      }
      CHECK(row[l + 1].index == -1);
    }
  }
  CHECK_THROWS_AS(workspace.convert_to_nodes(10), SvmError);
}
