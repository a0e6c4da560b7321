// Fuzzes the SVM model loader: the safetensors layer, then the model's
// metadata, tensor shapes, integer tensors, pair offsets and the model's own
// consistency checks (every support index in range, classes ordered).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "io/io_error.hpp"
#include "reader_contract.hpp"
#include "svm/model_file.hpp"
#include "svm/svm_error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  try {
    const cae::svm::OvoModel model = cae::svm::parse_model(bytes, cae::fuzz::kPath);
    // What the loader accepts must be usable: every index prediction follows.
    for (const cae::svm::PairDecision& pair : model.pairs) {
      for (int32_t k : pair.support) {
        if (k < 0 || k >= model.sv_count) std::abort();
      }
    }
  } catch (const cae::IoError& error) {
    cae::fuzz::require_good_message(error.what());
  } catch (const cae::svm::SvmError& error) {
    cae::fuzz::require_good_message(error.what());
  }
  return 0;
}
