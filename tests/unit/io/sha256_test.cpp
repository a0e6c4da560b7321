// SHA-256 against the FIPS 180-4 example digests, fed whole and in pieces.
#include <doctest/doctest.h>

#include <random>
#include <string>

#include "io/sha256.hpp"

namespace {

std::string digest(const std::string& text, size_t piece,
                   cae::Sha256Engine engine = cae::Sha256Engine::Best) {
  cae::Sha256 hash(engine);
  for (size_t at = 0; at < text.size(); at += piece) {
    hash.update(text.data() + at, std::min(piece, text.size() - at));
  }
  return hash.hex();
}

}  // namespace

TEST_CASE("sha256: the standard's examples, whole and in pieces, on both engines") {
  const std::string two_blocks = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
  for (cae::Sha256Engine engine : {cae::Sha256Engine::Best, cae::Sha256Engine::Portable}) {
    CAPTURE(int(engine));
    for (size_t piece : {size_t(1), size_t(7), size_t(64), size_t(1000)}) {
      CHECK(digest("", piece, engine) ==
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
      CHECK(digest("abc", piece, engine) ==
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
      CHECK(digest(two_blocks, piece, engine) ==
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    }
    CHECK(digest(std::string(1000000, 'a'), 4096, engine) ==
          "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  }
}

TEST_CASE("sha256: the processor's extensions give the portable digest for any length") {
  // On a processor without them both are the portable engine; the line says which ran.
  const std::string engines =
      cae::sha256_extensions_available() ? "the SHA extensions" : "portable only";
  MESSAGE(engines);
  std::mt19937 random(11);
  std::string bytes(70000, '\0');
  for (char& byte : bytes) byte = char(random());
  for (size_t length : {size_t(0), size_t(55), size_t(56), size_t(64), size_t(65), size_t(4097),
                        bytes.size()}) {
    for (size_t piece : {size_t(3), size_t(64), size_t(1000), size_t(1) << 20}) {
      CAPTURE(length);
      CAPTURE(piece);
      const std::string text = bytes.substr(0, length);
      CHECK(digest(text, piece) == digest(text, length + 1, cae::Sha256Engine::Portable));
    }
  }
}

TEST_CASE("sha256: no bytes, even from a null pointer, change nothing") {
  cae::Sha256 hash;
  hash.update(nullptr, 0);
  hash.update("ab", 2);
  hash.update(nullptr, 0);
  hash.update("c", 1);
  CHECK(hash.bytes() == 3);
  CHECK(hash.hex() == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST_CASE("sha256: a digest taken midway leaves the hash going on") {
  cae::Sha256 hash;
  hash.update("ab", 2);
  CHECK(hash.hex() == digest("ab", 2));
  hash.update("c", 1);
  CHECK(hash.bytes() == 3);
  CHECK(hash.hex() == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}
