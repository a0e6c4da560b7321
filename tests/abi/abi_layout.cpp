// abi_layout: the binary layout of api/cae/backend.h as text, and the check
// (CTest abi.layout) that it only changes together with the right version bump.
//
//   abi_layout --print               the layout of the header this was compiled with
//   abi_layout --check RECORD_DIR    compare it with the records RECORD_DIR/layout-M.N.txt
//
// A record lists the version, the ABI's constants, and for every struct that
// crosses the boundary its size and each member's offset, size, alignment and
// type. The rules (docs/abi.md, "Keeping the ABI stable"):
//   - the record of the header's own version, layout-<major>.<minor>.txt,
//     exists and matches exactly;
//   - every record of the same major and a lower minor is still contained in
//     the layout: its constants and members unchanged, its structs at most
//     grown (members appended);
//   - records of other majors do not constrain this one.
#include <cae/backend.h>
#include <cxxabi.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <typeinfo>
#include <vector>

namespace {

namespace fs = std::filesystem;

constexpr int kExitOk = 0;
constexpr int kExitMismatch = 1;
constexpr int kExitUsage = 2;
constexpr int kExitSkipped = 77;

// "cae_status (*)(cae_probe_result*)": a member's type as C++ spells it.
template <typename T>
std::string type_name() {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> name(
      abi::__cxa_demangle(typeid(T).name(), nullptr, nullptr, &status), std::free);
  return status == 0 && name ? name.get() : typeid(T).name();
}

struct Member {
  std::string name;
  size_t offset, size, align;
  std::string type;
};

struct Struct {
  std::string name;
  size_t size, align;
  std::vector<Member> members;  // in declaration order
};

#define CAE_MEMBER(S, field)                                                   \
  Member {                                                                     \
#field, offsetof(S, field), sizeof(S::field), alignof(decltype(S::field)), \
        type_name < decltype(S::field)>()                                      \
  }

// Every struct of the ABI with every member, in declaration order. A member
// appended to the header must be appended here too (the check below notices
// a struct whose listed members do not reach its end).
std::vector<Struct> abi_structs() {
  return {
      {"cae_probe_result",
       sizeof(cae_probe_result),
       alignof(cae_probe_result),
       {CAE_MEMBER(cae_probe_result, struct_size), CAE_MEMBER(cae_probe_result, available),
        CAE_MEMBER(cae_probe_result, priority), CAE_MEMBER(cae_probe_result, device_count),
        CAE_MEMBER(cae_probe_result, reason)}},
      {"cae_create_options",
       sizeof(cae_create_options),
       alignof(cae_create_options),
       {CAE_MEMBER(cae_create_options, struct_size), CAE_MEMBER(cae_create_options, device_index),
        CAE_MEMBER(cae_create_options, thread_count), CAE_MEMBER(cae_create_options, reserved)}},
      {"cae_option_value",
       sizeof(cae_option_value),
       alignof(cae_option_value),
       {CAE_MEMBER(cae_option_value, name), CAE_MEMBER(cae_option_value, value)}},
      {"cae_option_desc",
       sizeof(cae_option_desc),
       alignof(cae_option_desc),
       {CAE_MEMBER(cae_option_desc, struct_size), CAE_MEMBER(cae_option_desc, type),
        CAE_MEMBER(cae_option_desc, name), CAE_MEMBER(cae_option_desc, default_value),
        CAE_MEMBER(cae_option_desc, choices), CAE_MEMBER(cae_option_desc, min_value),
        CAE_MEMBER(cae_option_desc, max_value), CAE_MEMBER(cae_option_desc, help)}},
      {"cae_device_info",
       sizeof(cae_device_info),
       alignof(cae_device_info),
       {CAE_MEMBER(cae_device_info, struct_size), CAE_MEMBER(cae_device_info, precision),
        CAE_MEMBER(cae_device_info, deterministic), CAE_MEMBER(cae_device_info, compute_units),
        CAE_MEMBER(cae_device_info, memory_total_bytes),
        CAE_MEMBER(cae_device_info, memory_free_bytes), CAE_MEMBER(cae_device_info, device_name)}},
      {"cae_adam_params",
       sizeof(cae_adam_params),
       alignof(cae_adam_params),
       {CAE_MEMBER(cae_adam_params, learning_rate), CAE_MEMBER(cae_adam_params, beta1),
        CAE_MEMBER(cae_adam_params, beta2), CAE_MEMBER(cae_adam_params, epsilon),
        CAE_MEMBER(cae_adam_params, weight_decay), CAE_MEMBER(cae_adam_params, step)}},
      {"cae_graph_tensor",
       sizeof(cae_graph_tensor),
       alignof(cae_graph_tensor),
       {CAE_MEMBER(cae_graph_tensor, role), CAE_MEMBER(cae_graph_tensor, ndim),
        CAE_MEMBER(cae_graph_tensor, dims)}},
      {"cae_graph_node",
       sizeof(cae_graph_node),
       alignof(cae_graph_node),
       {CAE_MEMBER(cae_graph_node, op), CAE_MEMBER(cae_graph_node, args),
        CAE_MEMBER(cae_graph_node, fuse_relu), CAE_MEMBER(cae_graph_node, beta1),
        CAE_MEMBER(cae_graph_node, beta2), CAE_MEMBER(cae_graph_node, epsilon),
        CAE_MEMBER(cae_graph_node, weight_decay), CAE_MEMBER(cae_graph_node, momentum),
        CAE_MEMBER(cae_graph_node, scale)}},
      {"cae_graph_desc",
       sizeof(cae_graph_desc),
       alignof(cae_graph_desc),
       {CAE_MEMBER(cae_graph_desc, struct_size), CAE_MEMBER(cae_graph_desc, tensor_stride),
        CAE_MEMBER(cae_graph_desc, node_stride), CAE_MEMBER(cae_graph_desc, tensor_count),
        CAE_MEMBER(cae_graph_desc, tensors), CAE_MEMBER(cae_graph_desc, node_count),
        CAE_MEMBER(cae_graph_desc, reserved), CAE_MEMBER(cae_graph_desc, nodes),
        CAE_MEMBER(cae_graph_desc, group), CAE_MEMBER(cae_graph_desc, group_member),
        CAE_MEMBER(cae_graph_desc, group_members)}},
      {"cae_graph_run_params",
       sizeof(cae_graph_run_params),
       alignof(cae_graph_run_params),
       {CAE_MEMBER(cae_graph_run_params, struct_size),
        CAE_MEMBER(cae_graph_run_params, learning_rate),
        CAE_MEMBER(cae_graph_run_params, adam_step), CAE_MEMBER(cae_graph_run_params, reserved)}},
      {"cae_svm_dual_problem",
       sizeof(cae_svm_dual_problem),
       alignof(cae_svm_dual_problem),
       {CAE_MEMBER(cae_svm_dual_problem, struct_size), CAE_MEMBER(cae_svm_dual_problem, kernel_aa),
        CAE_MEMBER(cae_svm_dual_problem, kernel_ab), CAE_MEMBER(cae_svm_dual_problem, kernel_ba),
        CAE_MEMBER(cae_svm_dual_problem, kernel_bb), CAE_MEMBER(cae_svm_dual_problem, alpha),
        CAE_MEMBER(cae_svm_dual_problem, gradient), CAE_MEMBER(cae_svm_dual_problem, C),
        CAE_MEMBER(cae_svm_dual_problem, eps), CAE_MEMBER(cae_svm_dual_problem, max_iterations),
        CAE_MEMBER(cae_svm_dual_problem, iterations), CAE_MEMBER(cae_svm_dual_problem, converged)}},
      {"cae_backend_table",
       sizeof(cae_backend_table),
       alignof(cae_backend_table),
       {CAE_MEMBER(cae_backend_table, struct_size),
        CAE_MEMBER(cae_backend_table, abi_major),
        CAE_MEMBER(cae_backend_table, abi_minor),
        CAE_MEMBER(cae_backend_table, reserved),
        CAE_MEMBER(cae_backend_table, name),
        CAE_MEMBER(cae_backend_table, version),
        CAE_MEMBER(cae_backend_table, description),
        CAE_MEMBER(cae_backend_table, probe),
        CAE_MEMBER(cae_backend_table, create),
        CAE_MEMBER(cae_backend_table, destroy),
        CAE_MEMBER(cae_backend_table, last_error),
        CAE_MEMBER(cae_backend_table, device_info),
        CAE_MEMBER(cae_backend_table, tensor_alloc),
        CAE_MEMBER(cae_backend_table, tensor_free),
        CAE_MEMBER(cae_backend_table, tensor_upload),
        CAE_MEMBER(cae_backend_table, tensor_download),
        CAE_MEMBER(cae_backend_table, conv2d_forward),
        CAE_MEMBER(cae_backend_table, conv2d_backward),
        CAE_MEMBER(cae_backend_table, relu_forward),
        CAE_MEMBER(cae_backend_table, relu_backward),
        CAE_MEMBER(cae_backend_table, maxpool2x2_forward),
        CAE_MEMBER(cae_backend_table, maxpool2x2_backward),
        CAE_MEMBER(cae_backend_table, upsample2x_forward),
        CAE_MEMBER(cae_backend_table, upsample2x_backward),
        CAE_MEMBER(cae_backend_table, mse_loss),
        CAE_MEMBER(cae_backend_table, sgd_step),
        CAE_MEMBER(cae_backend_table, adam_step),
        CAE_MEMBER(cae_backend_table, kernel_matrix),
        CAE_MEMBER(cae_backend_table, synchronize),
        CAE_MEMBER(cae_backend_table, timer_start),
        CAE_MEMBER(cae_backend_table, timer_stop),
        CAE_MEMBER(cae_backend_table, memory_stats),
        CAE_MEMBER(cae_backend_table, group_create),
        CAE_MEMBER(cae_backend_table, group_all_reduce_sum),
        CAE_MEMBER(cae_backend_table, group_destroy),
        CAE_MEMBER(cae_backend_table, group_unique_id),
        CAE_MEMBER(cae_backend_table, group_join),
        CAE_MEMBER(cae_backend_table, host_alloc),
        CAE_MEMBER(cae_backend_table, host_free),
        CAE_MEMBER(cae_backend_table, option_count),
        CAE_MEMBER(cae_backend_table, option_describe),
        CAE_MEMBER(cae_backend_table, create_with_options),
        CAE_MEMBER(cae_backend_table, graph_compile),
        CAE_MEMBER(cae_backend_table, graph_run),
        CAE_MEMBER(cae_backend_table, graph_destroy),
        CAE_MEMBER(cae_backend_table, group_join_within),
        CAE_MEMBER(cae_backend_table, svm_dual_solve),
        CAE_MEMBER(cae_backend_table, kernel_rbf_from_linear),
        CAE_MEMBER(cae_backend_table, linear_loss),
        CAE_MEMBER(cae_backend_table, transpose),
        CAE_MEMBER(cae_backend_table, add_normal_noise),
        CAE_MEMBER(cae_backend_table, channel_code)}},
  };
}

// Values a backend compiles in: enumerators, limits, the entry symbol.
std::vector<std::pair<std::string, std::string>> abi_constants() {
  return {{"CAE_MAX_DIMS", std::to_string(CAE_MAX_DIMS)},
          {"CAE_BACKEND_ENTRY_SYMBOL", CAE_BACKEND_ENTRY_SYMBOL},
          {"CAE_BACKEND_TABLE_MIN_SIZE", std::to_string(CAE_BACKEND_TABLE_MIN_SIZE)},
          {"CAE_STATUS_OK", std::to_string(CAE_STATUS_OK)},
          {"CAE_STATUS_INVALID_ARGUMENT", std::to_string(CAE_STATUS_INVALID_ARGUMENT)},
          {"CAE_STATUS_UNSUPPORTED", std::to_string(CAE_STATUS_UNSUPPORTED)},
          {"CAE_STATUS_OUT_OF_MEMORY", std::to_string(CAE_STATUS_OUT_OF_MEMORY)},
          {"CAE_STATUS_DEVICE_ERROR", std::to_string(CAE_STATUS_DEVICE_ERROR)},
          {"CAE_STATUS_UNAVAILABLE", std::to_string(CAE_STATUS_UNAVAILABLE)},
          {"CAE_STATUS_INTERNAL", std::to_string(CAE_STATUS_INTERNAL)},
          {"CAE_PRECISION_FP32", std::to_string(CAE_PRECISION_FP32)},
          {"CAE_PRECISION_TF32", std::to_string(CAE_PRECISION_TF32)},
          {"CAE_PRECISION_BF16", std::to_string(CAE_PRECISION_BF16)},
          {"CAE_PRECISION_FP16", std::to_string(CAE_PRECISION_FP16)},
          {"CAE_KERNEL_LINEAR", std::to_string(CAE_KERNEL_LINEAR)},
          {"CAE_KERNEL_RBF", std::to_string(CAE_KERNEL_RBF)},
          {"CAE_LINEAR_LOSS_CROSS_ENTROPY", std::to_string(CAE_LINEAR_LOSS_CROSS_ENTROPY)},
          {"CAE_LINEAR_LOSS_SQUARED_HINGE", std::to_string(CAE_LINEAR_LOSS_SQUARED_HINGE)},
          {"CAE_LINEAR_LOSS_BLOCK_ROWS", std::to_string(CAE_LINEAR_LOSS_BLOCK_ROWS)},
          {"CAE_CHANNEL_CODE_CENTRED", std::to_string(CAE_CHANNEL_CODE_CENTRED)},
          {"CAE_CHANNEL_CODE_SPLIT", std::to_string(CAE_CHANNEL_CODE_SPLIT)},
          {"CAE_OPTION_BOOL", std::to_string(CAE_OPTION_BOOL)},
          {"CAE_OPTION_INT", std::to_string(CAE_OPTION_INT)},
          {"CAE_OPTION_FLOAT", std::to_string(CAE_OPTION_FLOAT)},
          {"CAE_OPTION_ENUM", std::to_string(CAE_OPTION_ENUM)},
          {"CAE_GRAPH_MAX_ARGS", std::to_string(CAE_GRAPH_MAX_ARGS)},
          {"CAE_GRAPH_INPUT", std::to_string(CAE_GRAPH_INPUT)},
          {"CAE_GRAPH_PARAMETER", std::to_string(CAE_GRAPH_PARAMETER)},
          {"CAE_GRAPH_OPTIMIZER_STATE", std::to_string(CAE_GRAPH_OPTIMIZER_STATE)},
          {"CAE_GRAPH_OUTPUT", std::to_string(CAE_GRAPH_OUTPUT)},
          {"CAE_GRAPH_INTERNAL", std::to_string(CAE_GRAPH_INTERNAL)},
          {"CAE_GRAPH_CONV2D_FORWARD", std::to_string(CAE_GRAPH_CONV2D_FORWARD)},
          {"CAE_GRAPH_CONV2D_BACKWARD", std::to_string(CAE_GRAPH_CONV2D_BACKWARD)},
          {"CAE_GRAPH_RELU_FORWARD", std::to_string(CAE_GRAPH_RELU_FORWARD)},
          {"CAE_GRAPH_RELU_BACKWARD", std::to_string(CAE_GRAPH_RELU_BACKWARD)},
          {"CAE_GRAPH_MAXPOOL2X2_FORWARD", std::to_string(CAE_GRAPH_MAXPOOL2X2_FORWARD)},
          {"CAE_GRAPH_MAXPOOL2X2_BACKWARD", std::to_string(CAE_GRAPH_MAXPOOL2X2_BACKWARD)},
          {"CAE_GRAPH_UPSAMPLE2X_FORWARD", std::to_string(CAE_GRAPH_UPSAMPLE2X_FORWARD)},
          {"CAE_GRAPH_UPSAMPLE2X_BACKWARD", std::to_string(CAE_GRAPH_UPSAMPLE2X_BACKWARD)},
          {"CAE_GRAPH_MSE_LOSS", std::to_string(CAE_GRAPH_MSE_LOSS)},
          {"CAE_GRAPH_SGD_STEP", std::to_string(CAE_GRAPH_SGD_STEP)},
          {"CAE_GRAPH_ADAM_STEP", std::to_string(CAE_GRAPH_ADAM_STEP)},
          {"CAE_GRAPH_ALL_REDUCE_SUM", std::to_string(CAE_GRAPH_ALL_REDUCE_SUM)},
          {"sizeof(cae_status)", std::to_string(sizeof(cae_status))}};
}

std::string version_text(int major, int minor) {
  return std::to_string(major) + "." + std::to_string(minor);
}

// ---- the layout as keyed lines -------------------------------------------
// Each line is "<kind> <name> <value...>"; "<kind> <name>" is its key.

using Layout = std::map<std::string, std::string>;  // key -> value

std::string current_text() {
  std::ostringstream out;
  out << "# Binary layout of api/cae/backend.h, ABI " << version_text(CAE_ABI_MAJOR, CAE_ABI_MINOR)
      << ", on LP64 Linux (x86-64, aarch64).\n"
      << "# Generated by `abi_layout --print`; checked by CTest abi.layout (see docs/abi.md).\n"
      << "version " << version_text(CAE_ABI_MAJOR, CAE_ABI_MINOR) << "\n";
  for (const auto& [name, value] : abi_constants()) out << "const " << name << " " << value << "\n";
  for (const Struct& s : abi_structs()) {
    out << "struct " << s.name << " size " << s.size << " align " << s.align << "\n";
    for (const Member& m : s.members) {
      out << "member " << s.name << "." << m.name << " offset " << m.offset << " size " << m.size
          << " align " << m.align << " type " << m.type << "\n";
    }
  }
  return out.str();
}

Layout parse(std::istream& in) {
  Layout layout;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const size_t kind_end = line.find(' ');
    const size_t name_end = line.find(' ', kind_end + 1);
    if (kind_end == std::string::npos) continue;
    const std::string key = line.substr(0, name_end);
    layout[key] = name_end == std::string::npos ? "" : line.substr(name_end + 1);
  }
  return layout;
}

// "size 232 align 8" -> 232
size_t struct_size_of(const std::string& value) {
  std::istringstream in(value);
  std::string word;
  size_t size = 0;
  in >> word >> size;
  return size;
}

std::string align_part(const std::string& value) { return value.substr(value.find(" align ")); }

// ---- the checks ------------------------------------------------------------

struct Verdict {
  std::vector<std::string> problems;
  void add(const std::string& text) { problems.push_back(text); }
};

// The listed members reach the end of their struct: a member added to the
// header but not to abi_structs() would leave a hole at the end.
void check_members_listed(Verdict& verdict) {
  for (const Struct& s : abi_structs()) {
    size_t end = 0;
    for (const Member& m : s.members) {
      const size_t expected = (end + m.align - 1) / m.align * m.align;
      if (m.offset != expected) {
        verdict.add(s.name + "." + m.name + " is at offset " + std::to_string(m.offset) +
                    ", expected " + std::to_string(expected) +
                    ": a member before it is missing from abi_structs() in " + __FILE__);
      }
      end = m.offset + m.size;
    }
    const size_t padded = (end + s.align - 1) / s.align * s.align;
    if (padded != s.size) {
      verdict.add(s.name + " is " + std::to_string(s.size) +
                  " bytes but its listed members end at " + std::to_string(end) +
                  ": add the new members to abi_structs() in " + __FILE__);
    }
  }
}

// The record of this very version matches the header exactly.
void check_own_record(const Layout& current, const Layout& record, const std::string& version,
                      Verdict& verdict) {
  for (const auto& [key, value] : record) {
    auto it = current.find(key);
    if (it == current.end()) {
      verdict.add("ABI " + version + ": " + key + " (" + value + ") is gone");
    } else if (it->second != value) {
      verdict.add("ABI " + version + ": " + key + " changed from '" + value + "' to '" +
                  it->second + "'");
    }
  }
  for (const auto& [key, value] : current) {
    if (!record.count(key)) verdict.add("ABI " + version + ": new " + key + " (" + value + ")");
  }
}

// An older minor of the same major is a prefix of this one: nothing of it
// changed, its structs only grew.
void check_older_minor(const Layout& current, const Layout& record, const std::string& version,
                       Verdict& verdict) {
  for (const auto& [key, value] : record) {
    if (key.rfind("version ", 0) == 0) continue;  // its own number, of course, differs
    auto it = current.find(key);
    if (it == current.end()) {
      verdict.add("ABI " + version + "'s " + key + " is gone");
      continue;
    }
    if (key.rfind("struct ", 0) == 0) {
      if (struct_size_of(it->second) < struct_size_of(value) ||
          align_part(it->second) != align_part(value)) {
        verdict.add("ABI " + version + "'s " + key + " (" + value +
                    ") shrank or changed alignment: " + it->second);
      }
    } else if (it->second != value) {
      verdict.add("ABI " + version + "'s " + key + " changed from '" + value + "' to '" +
                  it->second + "'");
    }
  }
}

struct Record {
  int major, minor;
  fs::path path;
};

// "layout-<major>.<minor>.txt", both numbers plain digits. Parsed by hand:
// GCC 12's <regex> draws false -Wmaybe-uninitialized warnings in the
// sanitizer build, and this is the only pattern the tool needs.
bool parse_record_name(const std::string& name, int& major, int& minor) {
  const std::string prefix = "layout-", suffix = ".txt";
  if (name.size() <= prefix.size() + suffix.size() || name.compare(0, prefix.size(), prefix) != 0 ||
      name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0) {
    return false;
  }
  const std::string version =
      name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
  const size_t dot = version.find('.');
  if (dot == std::string::npos) return false;
  const std::string first = version.substr(0, dot), second = version.substr(dot + 1);
  auto number = [](const std::string& text) {
    return !text.empty() && text.size() <= 6 &&
           std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
  };
  if (!number(first) || !number(second)) return false;
  major = std::stoi(first);
  minor = std::stoi(second);
  return true;
}

std::vector<Record> find_records(const fs::path& dir) {
  std::vector<Record> records;
  for (const auto& entry : fs::directory_iterator(dir)) {
    int major = 0, minor = 0;
    if (parse_record_name(entry.path().filename().string(), major, minor)) {
      records.push_back({major, minor, entry.path()});
    }
  }
  std::sort(records.begin(), records.end(), [](const Record& a, const Record& b) {
    return a.major != b.major ? a.major < b.major : a.minor < b.minor;
  });
  return records;
}

Layout read_layout(const fs::path& path) {
  std::ifstream in(path);
  return parse(in);
}

int check(const fs::path& dir) {
  const std::string version = version_text(CAE_ABI_MAJOR, CAE_ABI_MINOR);
  const fs::path own_path = dir / ("layout-" + version + ".txt");
  std::istringstream current_stream(current_text());
  const Layout current = parse(current_stream);
  Verdict verdict;
  check_members_listed(verdict);

  bool have_own = false;
  for (const Record& r : find_records(dir)) {
    if (r.major != CAE_ABI_MAJOR) continue;  // another major may differ in anything
    const std::string record_version = version_text(r.major, r.minor);
    const Layout record = read_layout(r.path);
    if (r.minor == CAE_ABI_MINOR) {
      have_own = true;
      check_own_record(current, record, version, verdict);
    } else if (r.minor < CAE_ABI_MINOR) {
      check_older_minor(current, record, record_version, verdict);
    } else {
      verdict.add("a record of ABI " + record_version + " exists (" + r.path.string() +
                  ") but the header says " + version + ": versions only go up");
    }
  }
  if (!have_own) {
    verdict.add("no record of ABI " + version + " (" + own_path.string() + ")");
  }

  if (verdict.problems.empty()) {
    std::cout << "abi.layout: ABI " << version << " matches " << own_path.string()
              << " and keeps every older " << CAE_ABI_MAJOR << ".x layout\n";
    return kExitOk;
  }
  std::cout << "abi.layout: the layout of api/cae/backend.h (ABI " << version
            << ") breaks the versioning rules:\n";
  for (const std::string& problem : verdict.problems) std::cout << "  - " << problem << "\n";
  std::cout << "\nWhat to do (docs/abi.md, \"Keeping the ABI stable\"):\n"
            << "  * members appended at the end of a struct, constants added: bump CAE_ABI_MINOR\n"
            << "    and record the new layout: abi_layout --print > " << dir.string()
            << "/layout-<major>.<minor>.txt\n"
            << "  * anything else (a member removed, moved, re-typed; a constant changed):\n"
            << "    bump CAE_ABI_MAJOR (minor back to 0) and record layout-<major>.0.txt\n"
            << "  * an unintended change: undo it.\n";
  return kExitMismatch;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "--print" && argc == 2) {
    std::cout << current_text();
    return kExitOk;
  }
  if (mode == "--check" && argc == 3) {
    if (sizeof(void*) != 8) {
      std::cout << "SKIPPED: the records describe LP64 platforms; this one has "
                << sizeof(void*) * 8 << "-bit pointers\n";
      return kExitSkipped;
    }
    return check(argv[2]);
  }
  std::cerr << "usage: abi_layout --print | --check RECORD_DIR\n";
  return kExitUsage;
}
