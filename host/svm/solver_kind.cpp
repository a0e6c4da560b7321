#include "svm/solver_kind.hpp"

#include "svm/svm_error.hpp"

namespace cae::svm {

SolverKind parse_solver_kind(const std::string& text) {
  if (text == "smo") return SolverKind::Smo;
  if (text == "libsvm") return SolverKind::Libsvm;
  throw SvmError("unknown SVM solver '" + text + "' (choose smo or libsvm)");
}

const char* solver_kind_name(SolverKind kind) { return kind == SolverKind::Smo ? "smo" : "libsvm"; }

}  // namespace cae::svm
