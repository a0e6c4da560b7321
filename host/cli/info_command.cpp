// `cae info`: one backend in detail — where it was loaded from, its device,
// the options it declares and which ops of the ABI it implements; with
// --weights, the model a checkpoint holds instead.
#include <iostream>
#include <optional>
#include <string>

#include "backend_options.hpp"
#include "commands.hpp"
#include "data/data_record.hpp"
#include "model_options.hpp"
#include "nn/checkpoint.hpp"
#include "path_options.hpp"
#include "plugin/compiled_graph.hpp"
#include "plugin/context.hpp"

namespace cae::cli {
namespace {

// Each optional member by name, so a user sees what "unsupported" will mean.
void print_members(const cae_backend_table* t) {
  struct Member {
    const char* name;
    bool present;
  };
  const Member members[] = {
      {"conv2d_forward", CAE_TABLE_HAS(t, conv2d_forward)},
      {"conv2d_backward", CAE_TABLE_HAS(t, conv2d_backward)},
      {"relu_forward", CAE_TABLE_HAS(t, relu_forward)},
      {"relu_backward", CAE_TABLE_HAS(t, relu_backward)},
      {"maxpool2x2_forward", CAE_TABLE_HAS(t, maxpool2x2_forward)},
      {"maxpool2x2_backward", CAE_TABLE_HAS(t, maxpool2x2_backward)},
      {"upsample2x_forward", CAE_TABLE_HAS(t, upsample2x_forward)},
      {"upsample2x_backward", CAE_TABLE_HAS(t, upsample2x_backward)},
      {"mse_loss", CAE_TABLE_HAS(t, mse_loss)},
      {"sgd_step", CAE_TABLE_HAS(t, sgd_step)},
      {"adam_step", CAE_TABLE_HAS(t, adam_step)},
      {"kernel_matrix", CAE_TABLE_HAS(t, kernel_matrix)},
      {"timer_start", CAE_TABLE_HAS(t, timer_start)},
      {"timer_stop", CAE_TABLE_HAS(t, timer_stop)},
      {"memory_stats", CAE_TABLE_HAS(t, memory_stats)},
      {"host_alloc", CAE_TABLE_HAS(t, host_alloc) && CAE_TABLE_HAS(t, host_free)},
      {"graph_compile", has_graph_members(*t)},
      {"svm_dual_solve", CAE_TABLE_HAS(t, svm_dual_solve)},
      {"kernel_rbf_from_linear", CAE_TABLE_HAS(t, kernel_rbf_from_linear)},
      {"linear_loss", CAE_TABLE_HAS(t, linear_loss)},
      {"transpose", CAE_TABLE_HAS(t, transpose)},
      {"add_normal_noise", CAE_TABLE_HAS(t, add_normal_noise)},
      {"channel_code", CAE_TABLE_HAS(t, channel_code)},
  };
  std::cout << "ops:\n";
  for (const auto& m : members) {
    std::cout << "  " << m.name << std::string(24 - std::string(m.name).size(), ' ')
              << (m.present ? "supported" : "unsupported") << "\n";
  }
}

// The declared options (ABI 1.4) with their defaults, allowed values and
// help, and the value each has in this context.
void print_options(const cae_backend_table& table, const BackendOptionValues& chosen) {
  const std::vector<OptionDeclaration> declared = declared_options(table);
  if (declared.empty()) {
    std::cout << "options:       none" << (table.abi_minor < 4 ? " (options need ABI 1.4)" : "")
              << "\n";
    return;
  }
  std::cout << "options:       (--backend-option NAME=VALUE)\n";
  const BackendOptionValues in_effect = options_in_effect(table, chosen);
  for (size_t i = 0; i < declared.size(); ++i) {
    const OptionDeclaration& o = declared[i];
    const std::string& value = in_effect[i].second;
    std::cout << "  " << o.name << "=" << value
              << (value == o.default_value ? "  (default)" : "  (default " + o.default_value + ")")
              << "\n    " << o.help << "\n    " << option_type_name(o.type) << ": "
              << allowed_values(o) << "\n";
  }
}

// Name, version, ABI, description, library and priority: the table's, no device needed.
void print_identity(const BackendRecord& backend) {
  const cae_backend_table& table = backend.table();
  std::cout << "backend:       " << backend.name << " " << (table.version ? table.version : "?")
            << " (ABI " << table.abi_major << "." << table.abi_minor << ", table "
            << table.struct_size << " bytes)\n"
            << "description:   " << (table.description ? table.description : "") << "\n"
            << "library:       " << backend.plugin.path << " (" << backend.origin << ")\n"
            << "priority:      " << backend.priority << "\n";
}

void print_graphs(const cae_backend_table& table) {
  std::cout << "graphs:        "
            << (has_graph_members(table) ? "compiles graphs (--execution auto runs them)"
                                         : "none: runs op by op (graphs need ABI 1.5)")
            << "\n";
}

// The backend --backend names when it is known but cannot run here (its
// probe failed: no GPU, or not the one it needs), else nullptr.
const BackendRecord* named_but_unavailable(const Registry& registry, const po::variables_map& vm) {
  if (!vm.count("backend")) return nullptr;
  const std::string spec = vm["backend"].as<std::string>();
  if (spec.empty()) return nullptr;  // select_backend says what is wrong
  const BackendRecord* named = registry.named(spec);
  return named && !named->available ? named : nullptr;
}

// The data the checkpoint was trained on, one setting a line, aligned with
// the model's lines.
void print_training_data(const std::optional<DataRecord>& data, std::ostream& out) {
  if (!data) {
    out << "trained on:    not recorded (a checkpoint written before cae recorded its data)\n";
    return;
  }
  out << "trained on:\n";
  for (const auto& [key, value] : data_record_rows(*data)) {
    out << "  " << key << ":" << std::string(key.size() < 24 ? 24 - key.size() : 1, ' ') << value
        << "\n";
  }
}

int run_info(const po::variables_map& vm) {
  if (vm.count("weights")) {
    const std::string path = vm["weights"].as<std::string>();
    const nn::Checkpoint checkpoint = nn::load_checkpoint(path);
    std::cout << "checkpoint:    " << path << " (" << checkpoint.state.epochs_done
              << " epochs done)\n";
    print_network(checkpoint.parameters.network, std::cout);
    // What the network's input goes through and how it was trained to be
    // sparse, when the checkpoint says (docs/features.md).
    if (checkpoint.parameters.input) {
      std::cout << "input transform: " << describe_input_transform(checkpoint.parameters.input->spec)
                << "\n";
    }
    if (checkpoint.state.sparsity != "none") {
      std::cout << "sparsity:      " << checkpoint.state.sparsity << "\n";
    }
    print_training_data(checkpoint.state.data, std::cout);
    return 0;
  }
  Registry registry = discover_backends(vm);
  print_discovery_warnings(registry);
  if (const BackendRecord* unavailable = named_but_unavailable(registry, vm)) {
    // What its table declares needs no device: shown, then the reason it cannot run here.
    const BackendOptionValues chosen = chosen_backend_options(*unavailable, vm);
    print_identity(*unavailable);
    std::cout << "device:        none: unavailable here\n";
    print_graphs(unavailable->table());
    print_options(unavailable->table(), chosen);
    print_members(&unavailable->table());
    throw UsageError("backend '" + unavailable->name + "' is unavailable here: " +
                     unavailable->unavailable_reason + "; what its table declares is listed above");
  }
  const BackendRecord& backend = select_backend(registry, vm);
  const cae_backend_table& table = backend.table();
  const BackendOptionValues chosen = chosen_backend_options(backend, vm);
  Context context(table, vm["device"].as<int>(), vm["threads"].as<int>(), chosen);
  DeviceInfo info = context.device_info();
  print_identity(backend);
  std::cout << "device:        " << info.name << "\n"
            << "memory:        " << info.memory_total_bytes / (1024 * 1024) << " MiB total, "
            << info.memory_free_bytes / (1024 * 1024) << " MiB free\n"
            << "compute units: " << info.compute_units << "\n"
            << "precision:     " << precision_name(info.precision) << "\n"
            << "deterministic: " << (info.deterministic ? "yes" : "no") << "\n";
  print_graphs(table);
  print_options(table, chosen);
  print_members(&table);
  return 0;
}

}  // namespace

Command info_command() {
  return {"info",
          "cae info [--backend NAME|PATH.so] [--plugin-dir DIR]... [--device I] "
          "[--backend-option NAME=VALUE]... | cae info --weights CKPT",
          "Show one backend in detail, or the model and data of a checkpoint",
          [](po::options_description& options, po::positional_options_description&) {
            add_backend_options(options);
            options.add_options()("weights", path_value("--weights")->value_name("CKPT"),
                                  "print this checkpoint's model instead of a backend");
          },
          run_info,
          "A backend: its library, device, precision, determinism, the options it declares\n"
          "(value, default, allowed values, help) and the ops it supports. For a backend that\n"
          "cannot run here: what its library declares, then the reason, exit 2.\n"
          "--weights CKPT: the model the checkpoint holds, layer by layer (channels, kernel,\n"
          "sizes), its parameters, FLOPs and feature dimension, and the data it was trained\n"
          "on (format, image shape, resize, labels, classes, image counts, split, the files'\n"
          "identity).\n"};
}

}  // namespace cae::cli
