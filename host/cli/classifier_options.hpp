// Which classifier the last stage trains (`cae svm`, `cae pipeline`):
//   --classifier svm      the one-vs-one kernel SVM (default): its class-pair
//                         kernels grow as rows^2
//   --classifier linear   multinomial logistic regression or one-vs-rest L2-SVMs
//                         (--linear-loss; svm/linear_trainer.hpp): memory grows
//                         as rows x dim
// and the check that refuses, before any work, a kernel SVM that would not
// fit the memory available, naming --classifier linear.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "command.hpp"
#include "linear_placement.hpp"
#include "svm/linear_trainer.hpp"
#include "svm/ovo_trainer.hpp"

namespace cae::cli {

enum class ClassifierKind { Svm, Linear };

void add_classifier_options(po::options_description& options);
// Throws UsageError for an unknown --classifier or a bad iteration count.
ClassifierKind classifier_from(const po::variables_map& vm);
const char* classifier_name(ClassifierKind kind);
// --C, --standardize, --svm-threads, --linear-iterations and --linear-loss as
// the linear classifier reads them. Throws UsageError for an unknown loss.
svm::LinearOptions linear_options_from(const po::variables_map& vm, const svm::TrainOptions& svm);
// Throws UsageError for a value other than host, backend or auto.
LinearPlace linear_place(const po::variables_map& vm);
// True for --linear-on backend: `cae svm` in one process selects a backend
// for the passes only then (auto selects none by itself: that could certify
// a backend on its first use only to pass on the host).
bool linear_on_backend(const po::variables_map& vm);

// Rows per class of `labels` once `held_out` of them (a validation split,
// spread over the classes in proportion) are set aside.
std::vector<int64_t> class_rows_after_split(const std::vector<int32_t>& labels, int64_t held_out);

// Throws UsageError (exit 2) when the kernel SVM on classes of `class_rows`
// rows of `dim` features, plus `bytes_to_come` the command will allocate
// before it (e.g. the features a pipeline has yet to extract), needs more
// host memory than is available; the message names --classifier linear.
void require_kernel_svm_fits(const std::vector<int64_t>& class_rows, int64_t dim,
                             const svm::TrainOptions& options, uint64_t bytes_to_come);

}  // namespace cae::cli
