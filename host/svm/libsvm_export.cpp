#include "svm/libsvm_export.hpp"

#include <svm.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

#include "svm/svm_error.hpp"

namespace cae::svm {

namespace {

// The arrays an svm_model points into, owned here (libsvm never frees them:
// we never hand the model to svm_free_*).
struct LibsvmModelStorage {
  std::vector<svm_node> nodes;
  std::vector<svm_node*> sv;
  std::vector<std::vector<double>> coef_rows;  // [nr_class - 1][l]
  std::vector<double*> coef;
  std::vector<double> rho;
  std::vector<int> label;
  std::vector<int> count;
  svm_model model{};
};

// SV rows as libsvm nodes: 1-based feature indices; zeros are left out, as
// in libsvm's sparse format.
void fill_support_vectors(const OvoModel& model, LibsvmModelStorage& out) {
  size_t nonzero = 0;
  for (float value : model.sv_rows) nonzero += value != 0.0f;
  out.nodes.reserve(nonzero + static_cast<size_t>(model.sv_count));
  std::vector<size_t> starts;
  for (int64_t k = 0; k < model.sv_count; ++k) {
    starts.push_back(out.nodes.size());
    const float* row = model.sv_row(k);
    for (int64_t d = 0; d < model.dim; ++d) {
      if (row[d] != 0.0f) out.nodes.push_back({static_cast<int>(d + 1), row[d]});
    }
    out.nodes.push_back({-1, 0.0});
  }
  for (size_t start : starts) out.sv.push_back(out.nodes.data() + start);
}

// libsvm's multi-class layout: for the pair (i, j), the coefficients of class
// i's SVs sit in row j - 1, those of class j's SVs in row i; 0 where an SV of
// the class plays no part in the pair.
void fill_coefficients(const OvoModel& model, LibsvmModelStorage& out) {
  const int k = model.class_count();
  out.coef_rows.assign(static_cast<size_t>(k - 1),
                       std::vector<double>(static_cast<size_t>(model.sv_count), 0.0));
  for (const PairDecision& decision : model.pairs) {
    for (size_t s = 0; s < decision.support.size(); ++s) {
      const int32_t sv = decision.support[s];
      const bool of_first = model.sv_class[static_cast<size_t>(sv)] == decision.pair.first;
      const int32_t row = of_first ? decision.pair.second - 1 : decision.pair.first;
      out.coef_rows[static_cast<size_t>(row)][static_cast<size_t>(sv)] = decision.coef[s];
    }
    out.rho.push_back(decision.rho);
  }
  for (std::vector<double>& row : out.coef_rows) out.coef.push_back(row.data());
}

void assemble(const OvoModel& model, LibsvmModelStorage& out) {
  fill_support_vectors(model, out);
  fill_coefficients(model, out);
  out.label.assign(model.classes.begin(), model.classes.end());
  out.count.assign(model.classes.size(), 0);
  for (int32_t c : model.sv_class) ++out.count[static_cast<size_t>(c)];

  svm_parameter& param = out.model.param;
  param.svm_type = C_SVC;
  param.kernel_type = model.kernel == KernelKind::Rbf ? RBF : LINEAR;
  param.degree = 3;
  param.gamma = model.gamma;
  param.C = model.C;
  out.model.nr_class = model.class_count();
  out.model.l = static_cast<int>(model.sv_count);
  out.model.SV = out.sv.data();
  out.model.sv_coef = out.coef.data();
  out.model.rho = out.rho.data();
  out.model.label = out.label.data();
  out.model.nSV = out.count.data();
  out.model.free_sv = 0;
}

}  // namespace

void export_libsvm_model(const OvoModel& model, const std::string& path) {
  model.validate("cannot export the SVM model to " + path);
  auto storage = std::make_unique<LibsvmModelStorage>();
  assemble(model, *storage);

  const std::string temp = path + ".tmp." + std::to_string(getpid());
  errno = 0;
  if (svm_save_model(temp.c_str(), &storage->model) != 0) {
    const int error = errno;
    std::remove(temp.c_str());
    throw SvmError("cannot write libsvm model " + path +
                   (error ? std::string(": ") + std::strerror(error) : std::string()));
  }
  if (std::rename(temp.c_str(), path.c_str()) != 0) {
    const int error = errno;
    std::remove(temp.c_str());
    throw SvmError("cannot rename " + temp + " to " + path + ": " + std::strerror(error));
  }
}

}  // namespace cae::svm
