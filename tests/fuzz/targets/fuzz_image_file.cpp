// Fuzzes the image folder source and its decoder (stb_image: PNG, JPEG, BMP,
// compiled into the target so that the sanitizers see inside it): the input
// is two images of a flat folder, boxed down to 8x8 and cropped to 4x4.
#include <cstddef>
#include <cstdint>
#include <string>

#include "data/image_file.hpp"
#include "data_source_contract.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cae::fuzz;
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  const std::string folder = scratch_folder() + "/images";
  put_scratch_file("images/a.png", bytes);
  put_scratch_file("images/b.bmp", bytes);
  cae::DataOptions options;
  options.format = cae::DataFormat::kFolder;
  options.test_fraction = 0.5;
  options.image_size = 8;
  load_and_read(folder, options);
  options.image_size = 4;
  options.resize = cae::ResizeMode::kCrop;
  load_and_read(folder, options);
  return 0;
}
