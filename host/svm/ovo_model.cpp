#include "svm/ovo_model.hpp"

#include <algorithm>
#include <cmath>

#include "common/parallel.hpp"
#include "svm/svm_error.hpp"

namespace cae::svm {

namespace {

[[noreturn]] void invalid(const std::string& where, const std::string& what) {
  throw SvmError(where + ": " + what);
}

}  // namespace

void OvoModel::validate(const std::string& where) const {
  if (classes.size() < 2) invalid(where, "fewer than two classes");
  for (size_t c = 1; c < classes.size(); ++c) {
    if (classes[c] <= classes[c - 1]) invalid(where, "class labels are not strictly ascending");
  }
  if (kernel == KernelKind::Rbf && !(gamma > 0.0f && std::isfinite(gamma))) {
    invalid(where, "RBF gamma is not a positive number");
  }
  if (dim <= 0) invalid(where, "feature dimension " + std::to_string(dim));
  if (!standardizer.empty() && standardizer.dim() != dim) {
    invalid(where, "standardizer has dimension " + std::to_string(standardizer.dim()) +
                       ", the model " + std::to_string(dim));
  }
  if (sv_count < 0 || sv_rows.size() != static_cast<size_t>(sv_count * dim) ||
      sv_class.size() != static_cast<size_t>(sv_count) ||
      sv_source.size() != static_cast<size_t>(sv_count)) {
    invalid(where, "support vector arrays do not match " + std::to_string(sv_count) +
                       " vectors of dimension " + std::to_string(dim));
  }
  for (int64_t k = 0; k < sv_count; ++k) {
    const int32_t c = sv_class[static_cast<size_t>(k)];
    if (c < 0 || c >= class_count() || (k > 0 && c < sv_class[static_cast<size_t>(k - 1)])) {
      invalid(where, "support vector classes are out of range or not grouped by class");
    }
  }
  const std::vector<ClassPair> expected = class_pairs(class_count());
  if (pairs.size() != expected.size()) {
    invalid(where, std::to_string(pairs.size()) + " class pairs for " +
                       std::to_string(class_count()) + " classes");
  }
  for (size_t p = 0; p < pairs.size(); ++p) {
    const PairDecision& decision = pairs[p];
    const std::string name = "pair (" + std::to_string(expected[p].first) + ", " +
                             std::to_string(expected[p].second) + ")";
    if (decision.pair.first != expected[p].first || decision.pair.second != expected[p].second) {
      invalid(where, "class pairs are not in one-vs-one order at " + name);
    }
    if (decision.coef.size() != decision.support.size()) {
      invalid(where, name + " has " + std::to_string(decision.support.size()) +
                         " support vectors but " + std::to_string(decision.coef.size()) +
                         " coefficients");
    }
    for (size_t k = 0; k < decision.support.size(); ++k) {
      const int32_t s = decision.support[k];
      if (s < 0 || s >= sv_count || (k > 0 && s <= decision.support[k - 1])) {
        invalid(where, name + " has support vector indices out of range or not ascending");
      }
      const int32_t c = sv_class[static_cast<size_t>(s)];
      if (c != decision.pair.first && c != decision.pair.second) {
        invalid(where, name + " uses a support vector of class index " + std::to_string(c));
      }
      if (!std::isfinite(decision.coef[k])) invalid(where, name + " has a non-finite coefficient");
    }
    if (!std::isfinite(decision.rho)) invalid(where, name + " has a non-finite rho");
  }
}

OvoModel assemble_model(const FeatureSet& train, const ClassLayout& layout,
                        const Standardizer& standardizer, std::vector<PairSolution> solutions,
                        KernelKind kernel, float gamma, double C) {
  OvoModel model;
  model.classes = layout.labels;
  model.kernel = kernel;
  model.gamma = gamma;
  model.C = C;
  model.standardizer = standardizer;
  model.dim = train.dim;

  // Union of the support vectors, ordered by (class index, training row).
  std::vector<int32_t> class_of_row(static_cast<size_t>(train.rows), -1);
  for (int32_t c = 0; c < layout.class_count(); ++c) {
    for (int64_t row : layout.rows[static_cast<size_t>(c)]) {
      class_of_row[static_cast<size_t>(row)] = c;
    }
  }
  std::vector<int64_t> union_rows;
  for (const PairSolution& solution : solutions) {
    union_rows.insert(union_rows.end(), solution.support.begin(), solution.support.end());
  }
  std::sort(union_rows.begin(), union_rows.end(), [&](int64_t a, int64_t b) {
    const int32_t ca = class_of_row[static_cast<size_t>(a)];
    const int32_t cb = class_of_row[static_cast<size_t>(b)];
    return ca != cb ? ca < cb : a < b;
  });
  union_rows.erase(std::unique(union_rows.begin(), union_rows.end()), union_rows.end());

  std::vector<int32_t> union_index(static_cast<size_t>(train.rows), -1);
  model.sv_count = static_cast<int64_t>(union_rows.size());
  model.sv_rows.resize(static_cast<size_t>(model.sv_count * model.dim));
  for (size_t k = 0; k < union_rows.size(); ++k) {
    const int64_t row = union_rows[k];
    union_index[static_cast<size_t>(row)] = static_cast<int32_t>(k);
    model.sv_class.push_back(class_of_row[static_cast<size_t>(row)]);
    model.sv_source.push_back(row);
  }
  // A gigabyte of standardised rows at 38,000 support vectors: on every core.
  parallel_chunks(resolve_thread_count(0), model.sv_count, [&](int64_t begin, int64_t end) {
    for (int64_t k = begin; k < end; ++k) {
      copy_standardized_rows(train, standardizer, union_rows[static_cast<size_t>(k)], 1,
                             model.sv_rows.data() + k * model.dim);
    }
  });

  // Pairs in one-vs-one order, their support lists mapped into the union.
  std::sort(solutions.begin(), solutions.end(), [](const PairSolution& a, const PairSolution& b) {
    return a.pair.first != b.pair.first ? a.pair.first < b.pair.first
                                        : a.pair.second < b.pair.second;
  });
  for (PairSolution& solution : solutions) {
    PairDecision decision;
    decision.pair = solution.pair;
    decision.rho = solution.rho;
    std::vector<std::pair<int32_t, float>> entries;
    for (size_t k = 0; k < solution.support.size(); ++k) {
      entries.emplace_back(union_index[static_cast<size_t>(solution.support[k])], solution.coef[k]);
    }
    std::sort(entries.begin(), entries.end());
    for (const auto& [index, coef] : entries) {
      decision.support.push_back(index);
      decision.coef.push_back(coef);
    }
    model.pairs.push_back(std::move(decision));
  }
  model.validate("assembled SVM model");
  return model;
}

}  // namespace cae::svm
