// Fuzzes the checkpoint loader behind --weights and --resume: the
// safetensors layer, the model description it records, the tensors against
// that model, the training state's metadata (checkpoint_metadata.cpp) and
// the optimiser state.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "nn/checkpoint.hpp"
#include "reader_contract.hpp"
#include "scratch_folder.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  const std::string path = cae::fuzz::put_scratch_file(cae::fuzz::kPath, bytes);
  try {
    (void)cae::nn::load_checkpoint(path);
  } catch (const std::runtime_error& error) {  // IoError is one too
    cae::fuzz::require_good_message(error.what());
  }
  return 0;
}
