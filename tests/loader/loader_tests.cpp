// The loader against deliberately broken plugins (tests/plugins): each fault
// gives its documented message and none crashes the host.
#include <dlfcn.h>
#include <doctest/doctest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include "io/sha256.hpp"
#include "plugin/backend_process_group.hpp"
#include "plugin/certification.hpp"
#include "plugin/context.hpp"
#include "plugin/extraction_streams.hpp"
#include "plugin/host_buffer.hpp"
#include "plugin/registry.hpp"
#include "text_contains.hpp"

using namespace cae;

namespace {

using test_support::contains;

// Discovery limited to the given folders: no environment, no default folders.
Registry discover_only(std::vector<std::string> dirs, std::vector<std::string> files = {}) {
  DiscoveryOptions options;
  options.plugin_dirs = std::move(dirs);
  options.explicit_files = std::move(files);
  options.use_environment = false;
  options.use_default_dirs = false;
  return Registry::discover(options);
}

std::string rejection_of(const Registry& registry, const std::string& path) {
  for (const auto& file : registry.considered()) {
    if (contains(file.path, path)) return file.accepted ? "accepted" : file.rejection;
  }
  return "not considered";
}

}  // namespace

TEST_CASE("a good plugin loads and its name comes from its table") {
  LoadOutcome outcome = load_plugin_file(STUB_GOOD);
  REQUIRE(outcome.ok);
  CHECK(std::string(outcome.plugin.table->name) == "stubgood");
  CHECK(outcome.plugin.table->abi_major == CAE_ABI_MAJOR);
}

TEST_CASE("a library without the entry symbol is rejected with dlerror's text") {
  LoadOutcome outcome = load_plugin_file(STUB_NO_ENTRY);
  CHECK_FALSE(outcome.ok);
  CHECK(contains(outcome.rejection, "missing entry symbol cae_backend_get_table"));
  CHECK(contains(outcome.rejection, "undefined symbol"));  // dlerror's own words
}

TEST_CASE("a table of another ABI major is refused, naming both versions") {
  LoadOutcome outcome = load_plugin_file(STUB_WRONG_MAJOR);
  CHECK_FALSE(outcome.ok);
  CHECK(contains(outcome.rejection, "ABI major mismatch"));
  CHECK(contains(outcome.rejection, "backend speaks " + std::to_string(CAE_ABI_MAJOR + 1) + "."));
  CHECK(contains(outcome.rejection, "host speaks " + std::to_string(CAE_ABI_MAJOR) + "."));
}

TEST_CASE("a table smaller than the host needs is refused") {
  LoadOutcome outcome = load_plugin_file(STUB_TOO_SMALL);
  CHECK_FALSE(outcome.ok);
  CHECK(contains(outcome.rejection, "table too small"));
  CHECK(contains(outcome.rejection, std::to_string(CAE_BACKEND_TABLE_MIN_SIZE)));
}

TEST_CASE("a file that is not a shared library is rejected as not a plugin") {
  LoadOutcome outcome = load_plugin_file(STUB_DIR "/libnot-a-plugin.so");
  CHECK_FALSE(outcome.ok);
  CHECK(contains(outcome.rejection, "not a plugin"));
}

TEST_CASE("discovery records every file considered and why it was rejected") {
  Registry registry = discover_only({STUB_DIR});
  CHECK(contains(rejection_of(registry, "libstub-no-entry.so"), "missing entry symbol"));
  CHECK(contains(rejection_of(registry, "libstub-wrong-major.so"), "ABI major mismatch"));
  CHECK(contains(rejection_of(registry, "libstub-too-small.so"), "table too small"));
  CHECK(contains(rejection_of(registry, "libnot-a-plugin.so"), "not a plugin"));
  CHECK(rejection_of(registry, "libstub-good.so") == "accepted");
  CHECK(registry.find("stubgood") != nullptr);
  CHECK(registry.find("failing") != nullptr);
}

TEST_CASE("a backend whose probe says unavailable is listed with its reason and not selectable") {
  Registry registry = discover_only({STUB_DIR});
  const BackendRecord* record = registry.find("unavail");
  REQUIRE(record != nullptr);
  CHECK_FALSE(record->available);
  CHECK(record->unavailable_reason == "stub: no such device on this machine");
  CHECK_FALSE(record->probe_failed);  // a well-formed "unavailable", not a broken probe
  try {
    registry.select("unavail");
    FAIL("select should refuse an unavailable backend");
  } catch (const std::runtime_error& e) {
    CHECK(contains(e.what(), "unavailable here: stub: no such device on this machine"));
  }
}

TEST_CASE("selection: case-insensitive names, unknown names list the choices, default by priority") {
  Registry registry = discover_only({STUB_DIR});
  CHECK(registry.select("STUBGOOD").name == "stubgood");
  try {
    registry.select("nosuch");
    FAIL("unknown name must throw");
  } catch (const std::runtime_error& e) {
    CHECK(contains(e.what(), "unknown backend 'nosuch'"));
    CHECK(contains(e.what(), "stubgood"));
  }
}

TEST_CASE("the default is the certified backend of highest priority, never an uncertified one") {
  // None of the stubs is certified: there is no default, and the error says how to get one.
  Registry registry = discover_only({STUB_DIR});
  CHECK(registry.default_backend() == nullptr);
  try {
    registry.select("");
    FAIL("an uncertified backend must not become the default");
  } catch (const std::runtime_error& e) {
    CHECK(contains(e.what(), "no certified backend to use by default"));
    CHECK(contains(e.what(), "cae-conformance --backend NAME"));
  }
  CHECK(registry.select("stubgood").name == "stubgood");  // named: still usable

  // A record for the exact file (a copy in a scratch folder) makes it the default.
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("cae-loader-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const std::string copy = (dir / "libstub-good.so").string();
  std::filesystem::copy_file(STUB_GOOD, copy, std::filesystem::copy_options::overwrite_existing);
  CertificationRecord record;
  record.backend = "stubgood";
  record.backend_version = "0.0.1";
  record.file = copy;
  record.sha256 = sha256_of_file(copy);
  record.verdict = "passed";
  record.seeds = {1};
  CHECK(write_certification(copy, record) == certification_beside(copy));
  const Registry certified = discover_only({dir.string()});
  REQUIRE(certified.default_backend() != nullptr);
  CHECK(certified.select("").name == "stubgood");
  CHECK(contains(certified.find("stubgood")->certification.summary, "passed seeds 1"));
  // Another version of the backend in the same file is not what was certified.
  record.backend_version = "0.0.2";
  write_certification(copy, record);
  const Registry other_version = discover_only({dir.string()});
  CHECK(other_version.default_backend() == nullptr);
  CHECK(contains(other_version.find("stubgood")->certification.summary, "certifies stubgood 0.0.2"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("an explicit file comes first and a duplicate name warns, first wins") {
  Registry registry = discover_only({STUB_DUPLICATE_DIR, STUB_DIR});
  const BackendRecord* record = registry.find("stubgood");
  REQUIRE(record != nullptr);
  CHECK(contains(record->plugin.path, "duplicate"));
  REQUIRE(registry.warnings().size() == 1);
  CHECK(contains(registry.warnings()[0], "ignored: already provided by"));

  Registry explicit_first = discover_only({STUB_DUPLICATE_DIR}, {STUB_GOOD});
  CHECK(contains(explicit_first.find("stubgood")->plugin.path, "stubs"));
  CHECK(explicit_first.select(STUB_GOOD).name == "stubgood");
  // The file the user named is their choice: the shadowed copy is a note for
  // `-v`, not a warning printed by every command.
  CHECK(explicit_first.warnings().empty());
  REQUIRE(explicit_first.notices().size() == 1);
  CHECK(contains(explicit_first.notices()[0], "named with --backend"));
}

TEST_CASE("a failing op becomes a BackendError with the plugin's message; the context survives") {
  Registry registry = discover_only({STUB_DIR});
  Context context(registry.select("failing").table());
  Tensor x = context.alloc({2, 3});
  Tensor y = context.alloc({2, 3});
  x.upload(std::vector<float>{-1, 2, -3, 4, -5, 6});
  try {
    context.relu_forward(x, y);
    FAIL("relu_forward should fail");
  } catch (const BackendError& e) {
    CHECK(e.status() == CAE_STATUS_DEVICE_ERROR);
    CHECK(contains(e.what(), "failing: relu_forward: stub: simulated device failure"));
  }
  // The context still works after the error.
  context.relu_backward(x, x, y);
  CHECK(y.download() == std::vector<float>{0, 2, 0, 4, 0, 6});
}

TEST_CASE("an op the backend leaves NULL is reported unsupported and never called") {
  Registry registry = discover_only({STUB_DIR});
  Context context(registry.select("stubgood").table());
  Tensor t = context.alloc({1, 1, 2, 2});
  try {
    context.maxpool2x2_forward(t, t);
    FAIL("maxpool2x2_forward should be unsupported");
  } catch (const BackendError& e) {
    CHECK(e.status() == CAE_STATUS_UNSUPPORTED);
    CHECK(contains(e.what(), "maxpool2x2_forward is not supported"));
  }
  CHECK_FALSE(context.has_timer());
  CHECK_FALSE(context.has_memory_stats());
}

TEST_CASE("upload with a wrong element count is refused with the plugin's message") {
  Registry registry = discover_only({STUB_DIR});
  Context context(registry.select("stubgood").table());
  Tensor t = context.alloc({4});
  std::vector<float> three(3, 1.0f);
  CHECK_THROWS_WITH_AS(t.upload(three), doctest::Contains("wrong count"), BackendError);
  // The stub begins its message with the member's name: the host adds the
  // backend's name and does not repeat the member's.
  CHECK_THROWS_WITH_AS(t.upload(three), "stubgood: tensor_upload: wrong count", BackendError);
}

TEST_CASE("a table that ends at the core (an older minor) loads; later members count as unsupported") {
  Registry registry = discover_only({STUB_DIR});
  const BackendRecord* record = registry.find("coreonly");
  REQUIRE(record != nullptr);
  CHECK(record->table().struct_size == CAE_BACKEND_TABLE_MIN_SIZE);
  // It still loads, but it declares 1.0, whose tables are larger: `-v` says so.
  CHECK(contains(record->table_warning, "struct_size"));
  CHECK(std::any_of(registry.notices().begin(), registry.notices().end(),
                    [](const std::string& n) { return contains(n, "coreonly"); }));
  CHECK(registry.find("stubgood")->table_warning.empty());
  Context context(record->table());
  // The members past struct_size are never read, whatever lies in memory there.
  CHECK_FALSE(context.has_timer());
  CHECK_FALSE(context.has_memory_stats());
  CHECK_THROWS_AS(context.timer_start(), BackendError);  // unsupported, not a call into the stub
  Tensor x = context.alloc({4});
  Tensor y = context.alloc({4});
  x.upload(std::vector<float>{-1, 2, -3, 4});
  context.relu_forward(x, y);
  CHECK(y.download() == std::vector<float>{0, 2, 0, 4});
}

TEST_CASE("ABI 1.0 and 1.1 plugins still load and have no process-group members (ABI 1.2)") {
  Registry registry = discover_only({STUB_DIR});
  const BackendRecord* abi10 = registry.find("abi10");
  const BackendRecord* abi11 = registry.find("abi11");
  REQUIRE(abi10 != nullptr);
  REQUIRE(abi11 != nullptr);
  CHECK(abi10->table().struct_size == CAE_BACKEND_TABLE_SIZE_1_0);
  CHECK(abi11->table().struct_size == CAE_BACKEND_TABLE_SIZE_1_1);
  // Their sizes fit the minors they declare: no warning.
  CHECK(abi10->table_warning.empty());
  CHECK(abi11->table_warning.empty());
  // abi11 has a group_join beyond its struct_size: the host must not see it.
  CHECK_FALSE(has_process_group_members(abi10->table()));
  CHECK_FALSE(has_process_group_members(abi11->table()));
  Context context(abi11->table());
  Tensor x = context.alloc({2});
  Tensor y = context.alloc({2});
  x.upload(std::vector<float>{-1, 2});
  context.relu_forward(x, y);
  CHECK(y.download() == std::vector<float>{0, 2});
}

TEST_CASE(
    "a 1.13 table's size is known: one that declares 1.13, 1.12, 1.11 or 1.10 with an older size "
    "is warned about") {
  LoadOutcome outcome = load_plugin_file(STUB_GOOD);
  REQUIRE(outcome.ok);
  cae_backend_table table = *outcome.plugin.table;
  REQUIRE(table.abi_minor == 13);
  CHECK(table.struct_size == CAE_BACKEND_TABLE_SIZE_1_13);
  CHECK(table_size_mismatch(table).empty());
  table.struct_size = static_cast<uint32_t>(CAE_BACKEND_TABLE_SIZE_1_12);
  CHECK(contains(
      table_size_mismatch(table),
      "not the " + std::to_string(CAE_BACKEND_TABLE_SIZE_1_13) + " bytes of a 1.13 table"));
  table.abi_minor = 12;
  CHECK(table_size_mismatch(table).empty());
  table.struct_size = static_cast<uint32_t>(CAE_BACKEND_TABLE_SIZE_1_11);
  CHECK(contains(
      table_size_mismatch(table),
      "not the " + std::to_string(CAE_BACKEND_TABLE_SIZE_1_12) + " bytes of a 1.12 table"));
  table.abi_minor = 11;
  CHECK(table_size_mismatch(table).empty());
  table.struct_size = static_cast<uint32_t>(CAE_BACKEND_TABLE_SIZE_1_10);
  CHECK(contains(
      table_size_mismatch(table),
      "not the " + std::to_string(CAE_BACKEND_TABLE_SIZE_1_11) + " bytes of a 1.11 table"));
  table.abi_minor = 10;
  CHECK(table_size_mismatch(table).empty());
  table.struct_size = static_cast<uint32_t>(CAE_BACKEND_TABLE_SIZE_1_9);
  CHECK(contains(table_size_mismatch(table), "not the " + std::to_string(CAE_BACKEND_TABLE_SIZE_1_10) +
                                                 " bytes of a 1.10 table"));
  // A 1.9 table is known, and one that declares 1.9 with a 1.7 size is warned about.
  table.abi_minor = 9;
  CHECK(table_size_mismatch(table).empty());
  table.struct_size = static_cast<uint32_t>(CAE_BACKEND_TABLE_SIZE_1_7);
  CHECK(contains(table_size_mismatch(table), "not the " + std::to_string(CAE_BACKEND_TABLE_SIZE_1_9) +
                                                 " bytes of a 1.9 table"));
  // A 1.8 table has 1.9's size (1.9 widened what svm_dual_solve accepts).
  table.abi_minor = 8;
  table.struct_size = static_cast<uint32_t>(CAE_BACKEND_TABLE_SIZE_1_8);
  CHECK(table_size_mismatch(table).empty());
  table.struct_size = static_cast<uint32_t>(CAE_BACKEND_TABLE_SIZE_1_7);
  // A 1.7 table, a 1.6 table and a 1.5 one (the same size as 1.6: 1.6
  // appended to graph structs only) are known too.
  table.abi_minor = 7;
  CHECK(table_size_mismatch(table).empty());
  table.abi_minor = 6;
  table.struct_size = static_cast<uint32_t>(CAE_BACKEND_TABLE_SIZE_1_6);
  CHECK(table_size_mismatch(table).empty());
  table.abi_minor = 5;
  table.struct_size = static_cast<uint32_t>(CAE_BACKEND_TABLE_SIZE_1_5);
  CHECK(table_size_mismatch(table).empty());
}

namespace {
// The stub's count of live host_alloc blocks (the library is already loaded:
// dlopen returns the same instance, so the count is the one the host used).
int live_host_blocks() {
  void* library = dlopen(STUB_GOOD, RTLD_NOW | RTLD_NOLOAD);
  REQUIRE(library != nullptr);
  void* symbol = dlsym(library, "stub_live_host_blocks");
  REQUIRE(symbol != nullptr);
  auto count = reinterpret_cast<int (*)()>(symbol);
  const int live = count();
  dlclose(library);
  return live;
}
}  // namespace

TEST_CASE("ABI 1.3 host memory: buffers come from host_alloc, carry transfers and are freed") {
  Registry registry = discover_only({STUB_DIR});
  const BackendRecord* record = registry.find("stubgood");
  REQUIRE(record != nullptr);
  Context context(record->table());
  REQUIRE(context.has_host_memory());
  // Extraction's auto rule: several contexts where copies have page-locked memory.
  CHECK(extraction_streams(context, 0) == kStreamsWithHostMemory);
  CHECK(extraction_streams(context, 1) == 1);
  const int before = live_host_blocks();
  {
    HostBuffer in(context, 4);
    HostBuffer out(context, 4);
    CHECK(in.pinned());
    CHECK(live_host_blocks() == before + 2);
    const float values[] = {-1, 2, -3, 4};
    std::copy(values, values + 4, in.data());
    Tensor x = context.alloc({4});
    Tensor y = context.alloc({4});
    x.upload(in.data(), in.size());
    context.relu_forward(x, y);
    y.download(out.data(), out.size());
    CHECK(std::vector<float>(out.data(), out.data() + 4) == std::vector<float>{0, 2, 0, 4});
    // A move hands the block over: one free, by the new owner.
    HostBuffer moved = std::move(in);
    CHECK(moved.pinned());
    CHECK_FALSE(in.pinned());
    CHECK(in.data() == nullptr);
    CHECK(in.size() == 0);
    CHECK(live_host_blocks() == before + 2);
    // Asked for pageable memory, it does not take the backend's.
    HostBuffer pageable(context, 4, HostMemory::kPageable);
    CHECK_FALSE(pageable.pinned());
    CHECK(live_host_blocks() == before + 2);
  }
  CHECK(live_host_blocks() == before);
  // A failed allocation is an error naming the call, not a silent fallback.
  CHECK_THROWS_WITH_AS(context.host_alloc(0), doctest::Contains("host_alloc: bytes is 0"),
                       BackendError);
  // A pointer host_alloc did not return is ignored.
  float foreign[4];
  context.host_free(foreign);
  CHECK(live_host_blocks() == before);
}

TEST_CASE("an ABI 1.2 plugin still loads; without host_alloc the host uses ordinary memory") {
  Registry registry = discover_only({STUB_DIR});
  const BackendRecord* abi12 = registry.find("abi12");
  REQUIRE(abi12 != nullptr);
  CHECK(abi12->table().struct_size == CAE_BACKEND_TABLE_SIZE_1_2);
  CHECK(abi12->table_warning.empty());
  Context context(abi12->table());
  // Its host_alloc lies beyond struct_size (and aborts if called).
  CHECK_FALSE(context.has_host_memory());
  CHECK(extraction_streams(context, 0) == 1);
  CHECK_THROWS_WITH_AS(context.host_alloc(16), doctest::Contains("not supported"), BackendError);
  HostBuffer in(context, 2);
  CHECK_FALSE(in.pinned());
  in.data()[0] = -1;
  in.data()[1] = 2;
  Tensor x = context.alloc({2});
  Tensor y = context.alloc({2});
  x.upload(in.data(), in.size());
  context.relu_forward(x, y);
  CHECK(y.download() == std::vector<float>{0, 2});
}

namespace {

// True when `path` is mapped in this process now (RTLD_NOLOAD loads nothing).
bool library_is_loaded(const std::string& path) {
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_NOLOAD);
  if (handle == nullptr) return false;
  dlclose(handle);  // the reference RTLD_NOLOAD just took
  return true;
}

}  // namespace

TEST_CASE("unloading at a command's end unmaps every backend library but a NODELETE one") {
  const std::string cpu_plugin = std::string(CPU_PLUGIN_DIR) + "/libcae-backend-cpu.so";
  REQUIRE(std::filesystem::is_regular_file(cpu_plugin));
  REQUIRE(load_plugin_file(STUB_GOOD).ok);
  REQUIRE(load_plugin_file(cpu_plugin).ok);
  REQUIRE(library_is_loaded(STUB_GOOD));
  REQUIRE(library_is_loaded(cpu_plugin));
  unload_plugin_libraries();
  // A GPU runtime linked into a library ends its hold on the device here.
  CHECK_FALSE(library_is_loaded(STUB_GOOD));
  // The cpu backend's OpenMP threads outlive its contexts: its library stays.
  CHECK(library_is_loaded(cpu_plugin));
  // A later command (or test) loads them again.
  LoadOutcome again = load_plugin_file(STUB_GOOD);
  REQUIRE(again.ok);
  CHECK(std::string(again.plugin.table->name) == "stubgood");
}
