#include "svm/validation_scores.hpp"

#include <cblas.h>

#include <algorithm>

#include "svm/svm_error.hpp"

namespace cae::svm {

ValidationScores::ValidationScores(Context& context, const ClassLayout& layout,
                                   const std::vector<DeviceRows>& class_rows,
                                   const DeviceRows& held_out, const KernelSpec& spec,
                                   const std::vector<std::vector<SmoPairSolution>>& chains)
    : layout_(layout),
      class_rows_(class_rows),
      held_out_(held_out),
      chains_(chains),
      pairs_(class_pairs(layout.class_count())),
      chain_length_(chains.empty() ? 0 : chains.front().size()),
      blocks_(context, spec) {
  if (chains.size() != pairs_.size() || chain_length_ == 0) {
    throw SvmError("validation scores need every class pair's solutions");
  }
  decisions_.assign(chain_length_,
                    std::vector<double>(static_cast<size_t>(held_out.rows()) * pairs_.size(), 0.0));
}

bool ValidationScores::add_next_class() {
  const int32_t c = next_class_;
  if (c >= layout_.class_count()) return false;
  ++next_class_;
  const std::vector<int64_t>& rows = layout_.rows[static_cast<size_t>(c)];
  const int64_t n = static_cast<int64_t>(rows.size());
  const int64_t nv = held_out_.rows();
  std::vector<size_t> mine;  // pairs of class c
  for (size_t p = 0; p < pairs_.size(); ++p) {
    if (pairs_[p].first == c || pairs_[p].second == c) mine.push_back(p);
  }
  // weights [mine x chain, n]: each solution's coefficients on class c's rows.
  const int64_t m = static_cast<int64_t>(mine.size() * chain_length_);
  weights_.assign(static_cast<size_t>(m * n), 0.0f);
  for (size_t q = 0; q < mine.size(); ++q) {
    for (size_t a = 0; a < chain_length_; ++a) {
      const PairSolution& s = chains_[mine[q]][a].solution;
      float* out = weights_.data() + (q * chain_length_ + a) * static_cast<size_t>(n);
      for (size_t k = 0; k < s.support.size(); ++k) {
        const auto at = std::lower_bound(rows.begin(), rows.end(), s.support[k]);
        if (at != rows.end() && *at == s.support[k]) out[at - rows.begin()] = s.coef[k];
      }
    }
  }
  const std::unique_ptr<float[]> kernel =
      blocks_.compute(class_rows_[static_cast<size_t>(c)], held_out_);  // [n, nv]
  products_.resize(static_cast<size_t>(m * nv));
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(m),
              static_cast<int>(nv), static_cast<int>(n), 1.0f, weights_.data(),
              static_cast<int>(n), kernel.get(), static_cast<int>(nv), 0.0f, products_.data(),
              static_cast<int>(nv));
  for (size_t q = 0; q < mine.size(); ++q) {
    for (size_t a = 0; a < chain_length_; ++a) {
      const float* row = products_.data() + (q * chain_length_ + a) * static_cast<size_t>(nv);
      std::vector<double>& out = decisions_[a];
      for (int64_t v = 0; v < nv; ++v) out[static_cast<size_t>(v) * pairs_.size() + mine[q]] += row[v];
    }
  }
  return true;
}

std::vector<std::vector<double>> ValidationScores::take_decisions() {
  if (next_class_ < layout_.class_count()) {
    throw SvmError("validation scores taken before every class was added");
  }
  blocks_.release();
  const int64_t nv = held_out_.rows();
  for (size_t p = 0; p < pairs_.size(); ++p) {
    for (size_t a = 0; a < chain_length_; ++a) {
      const double rho = chains_[p][a].solution.rho;
      for (int64_t v = 0; v < nv; ++v) decisions_[a][static_cast<size_t>(v) * pairs_.size() + p] -= rho;
    }
  }
  return std::move(decisions_);
}

}  // namespace cae::svm
