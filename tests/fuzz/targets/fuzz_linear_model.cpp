// Fuzzes the linear classifier's model file (`cae svm --classifier linear`
// writes it, `cae evaluate` reads it): the format sniffing that tells it from
// an SVM model, its metadata numbers, the class labels and tensor shapes.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "io/io_error.hpp"
#include "reader_contract.hpp"
#include "scratch_folder.hpp"
#include "svm/linear_model.hpp"
#include "svm/svm_error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  const std::string path = cae::fuzz::put_scratch_file(cae::fuzz::kPath, bytes);
  (void)cae::svm::is_linear_model_file(path);
  try {
    const cae::svm::LinearModel model = cae::svm::load_linear_model(path);
    // What the loader accepts must be usable by prediction.
    if (model.classes.empty() || model.weights.size() != model.classes.size() * size_t(model.dim) ||
        model.bias.size() != model.classes.size()) {
      std::abort();
    }
  } catch (const cae::IoError& error) {
    cae::fuzz::require_good_message(error.what());
  } catch (const cae::svm::SvmError& error) {
    cae::fuzz::require_good_message(error.what());
  }
  return 0;
}
