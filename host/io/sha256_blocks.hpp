// SHA-256's compression function over whole 64-byte blocks, in two engines:
// the portable one (FIPS 180-4, section 6.2.2, word by word) and, on x86-64
// processors with the SHA extensions, one built on their instructions
// (SHA256RNDS2, SHA256MSG1/2), several times faster. Every file cae writes is
// hashed as it is written (io/output_set.hpp), so a pipeline's 1 GB SVM
// model costs its hash's time on the critical path: about 4 s with the
// portable engine, well under a second with the extensions.
#pragma once

#include <cstddef>
#include <cstdint>

namespace cae {

enum class Sha256Engine {
  Best,      // the extensions when the processor has them, else portable
  Portable,  // always the portable one (tests compare the two)
};

// Updates state (a, ..., h) with `count` blocks of 64 bytes.
using Sha256Blocks = void (*)(uint32_t state[8], const uint8_t* blocks, size_t count);

Sha256Blocks sha256_blocks(Sha256Engine engine);

// Whether this processor has the SHA extensions (and the SSE4.1 they are used with).
bool sha256_extensions_available();

}  // namespace cae
