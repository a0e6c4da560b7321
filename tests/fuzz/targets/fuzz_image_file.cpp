// Fuzzes the image files of image folders and their decoder (stb_image: PNG,
// JPEG, BMP, compiled into the target so that the sanitizers see inside it):
// the header probe, then the image boxed down to 8x8 and cropped to 4x4 (the
// folder's layout is not in the bytes; unit.data covers it).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "data/data_error.hpp"
#include "data/image_file.hpp"
#include "reader_contract.hpp"
#include "scratch_folder.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cae::fuzz;
  const std::string path =
      put_scratch_file("image.png", std::string(reinterpret_cast<const char*>(data), size));
  try {
    const cae::ImageFileInfo info = cae::probe_image_file(path);
    if (info.width <= 0 || info.height <= 0 || (info.channels != 1 && info.channels != 3)) {
      std::abort();
    }
    std::vector<uint8_t> chw(size_t(info.channels) * 8 * 8);
    cae::load_image_file(path, info.channels, 8, cae::ResizeMode::kBox, chw.data());
    if (info.width >= 4 && info.height >= 4) {
      cae::load_image_file(path, 3, 4, cae::ResizeMode::kCrop, chw.data());
    }
  } catch (const cae::DataError& error) {
    require_good_message(error.what(), path);
  }
  return 0;
}
