// The warm-started search's validation scores of one gamma, computed one
// class at a time so that they fit between the kernels of the next gammas on
// the context that computes both (a whole gamma at once holds that context
// back long enough for the solvers to run out of kernels).
//
// decisions()[a][v * pairs + p]: the decision value of validation row v for
// class pair p (class_pairs() order) with C number `a` of the chain. Per
// class c, one kernel block K(class c's rows, validation rows) multiplied by
// the coefficients of every pair of c and every C at once (one SGEMM); the
// pairs' rho is subtracted once every class is added.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "plugin/context.hpp"
#include "svm/class_layout.hpp"
#include "svm/kernel_blocks.hpp"
#include "svm/pair_solver.hpp"

namespace cae::svm {

class ValidationScores {
 public:
  // chains[pair][a]: the pair's solution for C number `a`; every pair solved.
  ValidationScores(Context& context, const ClassLayout& layout,
                   const std::vector<DeviceRows>& class_rows, const DeviceRows& held_out,
                   const KernelSpec& spec,
                   const std::vector<std::vector<SmoPairSolution>>& chains);

  // Adds the next class's share; false once every class is in.
  bool add_next_class();
  // The decision values, once add_next_class() has returned false (frees the
  // device buffer).
  std::vector<std::vector<double>> take_decisions();

 private:
  const ClassLayout& layout_;
  const std::vector<DeviceRows>& class_rows_;
  const DeviceRows& held_out_;
  const std::vector<std::vector<SmoPairSolution>>& chains_;
  std::vector<ClassPair> pairs_;
  size_t chain_length_ = 0;
  KernelBlocks blocks_;
  int32_t next_class_ = 0;
  std::vector<std::vector<double>> decisions_;
  std::vector<float> weights_;
  std::vector<float> products_;
};

}  // namespace cae::svm
