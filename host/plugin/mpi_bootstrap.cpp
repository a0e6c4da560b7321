#include "plugin/mpi_bootstrap.hpp"

#include <dlfcn.h>

#include <exception>
#include <filesystem>
#include <stdexcept>

#include "plugin/mpi_module.h"
#include "plugin/registry.hpp"

namespace cae {
namespace {

// libcae-mpi.so's functions. The module stays loaded for the life of the
// process: MPI cannot start twice, and libmpi is not made to be unloaded.
struct MpiModule {
  cae_mpi_start_fn start = nullptr;
  cae_mpi_broadcast_fn broadcast = nullptr;
  cae_mpi_finish_fn finish = nullptr;
};

const MpiModule& mpi_module(int32_t rank) {
  static MpiModule module;
  if (module.start) return module;
  // Beside the plugins' folder: <prefix>/lib/cae/ of an install, or of the build tree.
  const std::string path =
      (std::filesystem::path(executable_dir()) / ".." / "lib" / "cae" / "libcae-mpi.so").string();
  // RTLD_GLOBAL: Open MPI's own components, which it loads later, find libmpi's symbols.
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
  const char* why = handle ? nullptr : dlerror();
  if (handle) {
    module.start = reinterpret_cast<cae_mpi_start_fn>(dlsym(handle, "cae_mpi_start"));
    module.broadcast = reinterpret_cast<cae_mpi_broadcast_fn>(dlsym(handle, "cae_mpi_broadcast"));
    module.finish = reinterpret_cast<cae_mpi_finish_fn>(dlsym(handle, "cae_mpi_finish"));
  }
  if (!module.start || !module.broadcast || !module.finish) {
    module = MpiModule{};
    throw std::runtime_error("rank " + std::to_string(rank) + ": cannot load MPI's bootstrap " +
                             path + (why ? std::string(" (") + why + ")" : std::string()) +
                             "; give --nccl-id-file PATH instead");
  }
  return module;
}

}  // namespace

MpiBootstrap::MpiBootstrap(int32_t rank, int32_t world) : rank_(rank) {
  char error[512] = "";
  if (mpi_module(rank).start(rank, world, error, sizeof error) != 0) {
    throw std::runtime_error("rank " + std::to_string(rank) + ": " + error);
  }
}

MpiBootstrap::~MpiBootstrap() {
  if (std::uncaught_exceptions() == 0) mpi_module(rank_).finish();
}

std::string MpiBootstrap::broadcast_from_rank0(const std::string& bytes) {
  const MpiModule& mpi = mpi_module(rank_);
  char error[512] = "";
  uint64_t size = rank_ == 0 ? bytes.size() : 0;
  std::string received;
  if (mpi.broadcast(&size, sizeof size, error, sizeof error) == 0) {
    received = rank_ == 0 ? bytes : std::string(size_t(size), '\0');
    if (mpi.broadcast(received.data(), size, error, sizeof error) == 0) return received;
  }
  throw std::runtime_error("rank " + std::to_string(rank_) + ": " + error);
}

}  // namespace cae
