// The group id file of distributed runs: what rank 0 writes reads back
// identically; anything else is refused with one line naming the file.
#include "plugin/group_id.hpp"

#include <doctest/doctest.h>

#include <stdexcept>
#include <string>

namespace cae {
namespace {

std::string id_file(const std::string& backend, const std::string& exchange, const std::string& id) {
  return "cae-group-id 1\nbackend " + backend + "\nexchange " + exchange + "\nid " + id + "\n";
}

TEST_CASE("a group id reads back as written") {
  const GroupId id{"cpu", kFileExchange, {0x00, 0x7f, 0xff, 0x10}};
  CHECK(group_id_text(id) == id_file("cpu", "files", "007fff10"));
  const GroupId back = parse_group_id(group_id_text(id), "g.id");
  CHECK(back.backend == "cpu");
  CHECK(back.exchange == "files");
  CHECK(back.bytes == id.bytes);
}

TEST_CASE("a damaged group id file is refused with one line naming it") {
  const auto refused = [](const std::string& text, const std::string& why) {
    CHECK_THROWS_WITH_AS(parse_group_id(text, "g.id"),
                         doctest::Contains(("g.id is not a cae group id file (" + why + ")").c_str()),
                         std::runtime_error);
  };
  refused("", "expected the lines cae-group-id 1, backend, exchange, id");
  refused(id_file("cpu", "nccl", "00"), "expected the lines cae-group-id 1, backend, exchange, id");
  refused(id_file("cpu", "files", ""), "bad id");
  refused(id_file("cpu", "files", "ABCD"), "bad id");
  refused(id_file("cpu", "files", "abc"), "bad id");
  refused(id_file("cpu", "files", std::string(2 * 4097, 'a')), "bad id");
  refused(id_file("c\x01pu", "files", "00"), "bad backend name");
  refused(id_file("cpu", "files", "00") + "more", "text after the id");
  CHECK(parse_group_id(id_file("cpu", "files", std::string(2 * 4096, 'a')), "g.id").bytes.size() ==
        4096);
}

}  // namespace
}  // namespace cae
