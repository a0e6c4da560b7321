// SVM options shared by `cae svm` and `cae pipeline`.
#pragma once

#include <memory>

#include "command.hpp"
#include "svm/ovo_trainer.hpp"

namespace cae::cli {

// The range of C, for --C and every value of --search-C.
constexpr double kMinC = 1e-6;
constexpr double kMaxC = 1e9;

void add_svm_options(po::options_description& options);
svm::TrainOptions svm_options_from(const po::variables_map& vm);

// Shows class pairs done through a ProgressReporter (bar on a terminal, log
// lines otherwise); the returned holder must outlive training.
std::shared_ptr<void> attach_svm_progress(svm::TrainOptions& options);

}  // namespace cae::cli
