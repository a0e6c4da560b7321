// stb_image's decoders (Debian's libstb-dev header), compiled here with the
// fuzzer's coverage and the sanitizers in place of the prebuilt libstb the
// main build links: a read past a buffer inside a decoder is then a finding.
#define STB_IMAGE_IMPLEMENTATION
#include <stb_image.h>
