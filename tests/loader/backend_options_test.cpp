// Declared backend options (ABI 1.4) against the stub plugins: "optstub"
// declares one option of each type, "abi13" is built against ABI 1.3 and has
// none. The host checks chosen values before any context exists; the backend
// checks them again in create_with_options; neither clamps.
#include <doctest/doctest.h>

#include <stdexcept>
#include <string>

#include "plugin/context.hpp"
#include "plugin/declared_options.hpp"
#include "plugin/registry.hpp"
#include "text_contains.hpp"

using namespace cae;

namespace {

Registry stub_registry() {
  DiscoveryOptions options;
  options.plugin_dirs = {STUB_DIR};
  options.use_environment = false;
  options.use_default_dirs = false;
  return Registry::discover(options);
}

std::string check_error(const cae_backend_table& table, const std::vector<std::string>& given) {
  try {
    check_backend_options(table, given);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "accepted";
}

using test_support::contains;

}  // namespace

TEST_CASE("a 1.4 plugin declares its options: name, type, default, allowed values, help") {
  Registry registry = stub_registry();
  const BackendRecord* stub = registry.find("optstub");
  REQUIRE(stub != nullptr);
  CHECK(stub->table().struct_size >= CAE_BACKEND_TABLE_SIZE_1_4);
  CHECK(stub->table_warning.empty());
  REQUIRE(has_option_members(stub->table()));
  const std::vector<OptionDeclaration> options = declared_options(stub->table());
  REQUIRE(options.size() == 4);
  CHECK(options[0].name == "scale");
  CHECK(options[0].type == CAE_OPTION_FLOAT);
  CHECK(options[0].default_value == "1");
  CHECK(allowed_values(options[0]) == "a finite number in 0.25..4");
  CHECK(options[1].name == "units");
  CHECK(allowed_values(options[1]) == "an integer in 1..64");
  CHECK(options[2].name == "exact");
  CHECK(allowed_values(options[2]) == "true or false");
  CHECK(options[3].name == "colour");
  CHECK(allowed_values(options[3]) == "one of red|green|blue");
  CHECK_FALSE(options[3].help.empty());
}

TEST_CASE("chosen values are checked against the declaration, never clamped") {
  Registry registry = stub_registry();
  const cae_backend_table& table = registry.select("optstub").table();
  const BackendOptionValues good =
      check_backend_options(table, {"scale=0.5", "units=64", "exact=false", "colour=blue"});
  CHECK(good.size() == 4);
  CHECK(good[0] == std::make_pair(std::string("scale"), std::string("0.5")));

  CHECK(contains(check_error(table, {"speed=3"}), "has no such option"));
  CHECK(contains(check_error(table, {"speed=3"}), "scale, units, exact, colour"));
  CHECK(contains(check_error(table, {"scale=9"}), "scale takes a finite number in 0.25..4"));
  CHECK(contains(check_error(table, {"scale=nan"}), "scale=nan"));
  CHECK(contains(check_error(table, {"scale=inf"}), "scale=inf"));
  CHECK(contains(check_error(table, {"scale= 1"}), "scale= 1"));
  CHECK(contains(check_error(table, {"units=65"}), "an integer in 1..64"));
  CHECK(contains(check_error(table, {"units=2.5"}), "an integer in 1..64"));
  CHECK(contains(check_error(table, {"units="}), "an integer in 1..64"));
  CHECK(contains(check_error(table, {"exact=yes"}), "true or false"));
  CHECK(contains(check_error(table, {"colour=pink"}), "one of red|green|blue"));
  // One choice, never two joined by the separator.
  CHECK(contains(check_error(table, {"colour=red|green"}), "one of red|green|blue"));
  CHECK(contains(check_error(table, {"colour=red|green|blue"}), "one of red|green|blue"));
  CHECK(contains(check_error(table, {"colour=|red"}), "one of red|green|blue"));
  CHECK(contains(check_error(table, {"units=-"}), "an integer in 1..64"));
  CHECK(contains(check_error(table, {"scale=+1"}), "scale=+1"));
  CHECK(contains(check_error(table, {"units=2", "units=3"}), "given twice"));
  CHECK(contains(check_error(table, {"units"}), "is not NAME=VALUE"));
  CHECK(contains(check_error(table, {"=3"}), "is not NAME=VALUE"));
}

TEST_CASE("the options in effect list every declared option, chosen or default") {
  Registry registry = stub_registry();
  const cae_backend_table& table = registry.select("optstub").table();
  const BackendOptionValues effect = options_in_effect(table, {{"colour", "green"}});
  CHECK(options_text(effect) == "scale=1 units=1 exact=true colour=green");
  CHECK(options_in_effect(registry.select("stubgood").table(), {}).empty());
}

TEST_CASE("a context created with options computes with them") {
  Registry registry = stub_registry();
  const cae_backend_table& table = registry.select("optstub").table();
  Context plain(table);
  CHECK(plain.device_info().name == "minimal host memory red");  // the defaults
  CHECK(plain.device_info().compute_units == 1);
  Context chosen(table, 0, 0, {{"scale", "2"}, {"units", "7"}, {"exact", "false"}, {"colour", "blue"}});
  const DeviceInfo info = chosen.device_info();
  CHECK(info.name == "minimal host memory blue");
  CHECK(info.compute_units == 7);
  CHECK_FALSE(info.deterministic);
  Tensor x = chosen.alloc({3});
  Tensor y = chosen.alloc({3});
  x.upload(std::vector<float>{-1, 1.5f, 3});
  chosen.relu_forward(x, y);
  CHECK(y.download() == std::vector<float>{0, 3, 6});
  // A companion context "like this one" gets the same options.
  CHECK(chosen.options().size() == 4);
}

TEST_CASE("the backend itself refuses an undeclared name or a bad value, naming it") {
  Registry registry = stub_registry();
  const cae_backend_table& table = registry.select("optstub").table();
  cae_create_options create{};
  create.struct_size = sizeof create;
  cae_context ctx = nullptr;
  const cae_option_value unknown[] = {{"speed", "3"}};
  CHECK(table.create_with_options(&create, unknown, 1, &ctx) == CAE_STATUS_UNSUPPORTED);
  CHECK(ctx == nullptr);
  CHECK(contains(table.last_error(nullptr), "speed"));
  const cae_option_value bad[] = {{"units", "0"}};
  CHECK(table.create_with_options(&create, bad, 1, &ctx) == CAE_STATUS_INVALID_ARGUMENT);
  CHECK(ctx == nullptr);
  CHECK(contains(table.last_error(nullptr), "units=0"));
  // Through the host's wrapper the status and message reach the caller.
  CHECK_THROWS_WITH_AS(Context(table, 0, 0, {{"units", "0"}}), doctest::Contains("units=0"),
                       BackendError);
}

TEST_CASE("an ABI 1.3 plugin loads beside a 1.4 one and is refused any option") {
  Registry registry = stub_registry();
  const BackendRecord* abi13 = registry.find("abi13");
  const BackendRecord* stub = registry.find("optstub");
  REQUIRE(abi13 != nullptr);
  REQUIRE(stub != nullptr);
  CHECK(abi13->table().abi_minor == 3);
  CHECK(abi13->table().struct_size == CAE_BACKEND_TABLE_SIZE_1_3);
  CHECK(abi13->table_warning.empty());
  // Its option_count lies beyond struct_size (and aborts if called).
  CHECK_FALSE(has_option_members(abi13->table()));
  CHECK(declared_options(abi13->table()).empty());
  const std::string refused = check_error(abi13->table(), {"scale=2"});
  CHECK(contains(refused, "backend abi13 (ABI 1.3) declares no options"));
  CHECK(contains(refused, "options need ABI 1.4"));
  CHECK_THROWS_WITH_AS(Context(abi13->table(), 0, 0, {{"scale", "2"}}),
                       doctest::Contains("declares no options"), BackendError);
  // Without options it runs as before, next to the 1.4 plugin's context.
  Context old(abi13->table());
  Context current(stub->table(), 0, 0, {{"scale", "4"}});
  Tensor x = old.alloc({2});
  Tensor y = old.alloc({2});
  x.upload(std::vector<float>{-1, 2});
  old.relu_forward(x, y);
  CHECK(y.download() == std::vector<float>{0, 2});
}
