// Writes the model in libsvm's own model-file format (svm_save_model), so
// libsvm's tools can use it. The support vectors are in the model's
// standardised space: inputs must be standardised with the model's
// Standardizer before libsvm sees them.
#pragma once

#include <string>

#include "svm/ovo_model.hpp"

namespace cae::svm {

// Atomic: writes "<path>.tmp.<pid>" and renames it. Throws SvmError.
void export_libsvm_model(const OvoModel& model, const std::string& path);

}  // namespace cae::svm
