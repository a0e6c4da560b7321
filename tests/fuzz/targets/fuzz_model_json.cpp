// Fuzzes the model description reader (`--model FILE.json`, and the model a
// checkpoint records): JSON syntax, repeated keys, unknown fields, every
// number's type and range. What it accepts must write out and read back to
// the same description.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "nn/model_json.hpp"
#include "reader_contract.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const cae::nn::ModelDescription model = cae::nn::parse_model_json(text, cae::fuzz::kPath);
    const std::string written = cae::nn::model_json(model, 3);
    if (cae::nn::model_json(cae::nn::parse_model_json(written, cae::fuzz::kPath), 3) != written) {
      std::abort();
    }
  } catch (const std::invalid_argument& error) {
    cae::fuzz::require_good_message(error.what());
  }
  return 0;
}
