#include "plugin/group_rendezvous.hpp"

#include <filesystem>
#include <random>
#include <stdexcept>
#include <system_error>
#include <thread>

#include "io/atomic_file.hpp"
#include "io/binary_file.hpp"
#include "plugin/group_id.hpp"
#include "plugin/backend_process_group.hpp"
#include "plugin/file_process_group.hpp"
#include "plugin/mpi_bootstrap.hpp"

namespace cae {
namespace fs = std::filesystem;
namespace {

// A name no other run picks: the file exchange's files carry it.
std::vector<unsigned char> random_token() {
  std::random_device device;
  std::vector<unsigned char> token(16);
  for (unsigned char& b : token) b = static_cast<unsigned char>(device() & 0xff);
  return token;
}

// Rank 0's new id: the backend's, or a name for the host's file exchange.
GroupId make_group_id(Context& context) {
  GroupId id;
  id.backend = context.backend_name();
  if (has_process_group_members(context.table())) {
    id.exchange = kBackendExchange;
    id.bytes = make_backend_group_id(context.table());
  } else {
    id.exchange = kFileExchange;
    id.bytes = random_token();
  }
  return id;
}

GroupId publish(Context& context, const Rendezvous& r) {
  if (fs::exists(r.id_file)) {
    throw std::runtime_error("rank 0: the group id file " + r.id_file +
                             " already exists (left by an earlier run?); remove it and start "
                             "every rank again");
  }
  const GroupId id = make_group_id(context);
  write_file_atomically(r.id_file, group_id_text(id));
  return id;
}

GroupId await(const Rendezvous& r) {
  const auto deadline = std::chrono::steady_clock::now() + r.timeout;
  while (!fs::exists(r.id_file)) {
    if (std::chrono::steady_clock::now() > deadline) {
      throw std::runtime_error("rank " + std::to_string(r.rank) + ": no group id in " +
                               r.id_file + " after " + seconds_text(r.timeout) +
                               " (is rank 0 running with the same --nccl-id-file?)");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  // Four lines: a huge file at that name is refused unread.
  return parse_group_id(read_binary_file(r.id_file, 64 << 10, "a group id file"), r.id_file);
}

// `exchange_prefix` names the host's exchange files when the id is for them.
std::unique_ptr<ProcessGroup> join(Context& context, const Rendezvous& r, const GroupId& id,
                                   const std::string& exchange_prefix) {
  const std::string origin = r.id_file.empty() ? "the group id it sent through MPI" : r.id_file;
  if (id.backend != context.backend_name()) {
    throw std::runtime_error("rank " + std::to_string(r.rank) + " runs backend " +
                             context.backend_name() + " but rank 0 made " + origin +
                             " for backend " + id.backend + "; give every rank the same --backend");
  }
  std::unique_ptr<ProcessGroup> group;
  if (id.exchange == kBackendExchange) {
    if (!has_process_group_members(context.table())) {
      throw std::runtime_error("rank " + std::to_string(r.rank) + ": backend " +
                               context.backend_name() +
                               " here has no process-group members (ABI 1.2) but rank 0's has");
    }
    group = std::make_unique<BackendProcessGroup>(context, r.rank, r.world, id.bytes,
                                                  std::chrono::milliseconds(r.timeout));
  } else {
    group = std::make_unique<FileProcessGroup>(exchange_prefix, r.rank, r.world, r.timeout);
  }
  // Every rank has joined, so every rank has read the id: a later run may reuse the name.
  if (r.rank == 0 && !r.id_file.empty()) {
    std::error_code ignored;
    fs::remove(r.id_file, ignored);
  }
  return group;
}

#if CAE_HAVE_MPI
// Rank 0's id, and for the host's exchange the prefix of its files, reach the
// other ranks by MPI_Bcast; MPI is done once every rank has joined.
std::unique_ptr<ProcessGroup> join_through_mpi(Context& context, const Rendezvous& r) {
  MpiBootstrap mpi(r.rank, r.world);
  GroupId id;
  std::string prefix;
  if (r.rank == 0) {
    id = make_group_id(context);
    prefix = (fs::path(r.exchange_folder) / (".cae-group-" + to_hex(id.bytes))).string();
  }
  id =
      parse_group_id(mpi.broadcast_from_rank0(group_id_text(id)), "the id rank 0 sent through MPI");
  prefix = mpi.broadcast_from_rank0(prefix);
  return join(context, r, id, prefix);
}
#endif

}  // namespace

std::unique_ptr<ProcessGroup> join_process_group(Context& context, const Rendezvous& r) {
  if (r.through_mpi) {
#if CAE_HAVE_MPI
    return join_through_mpi(context, r);
#else
    throw std::logic_error(
        "the group id cannot travel through MPI: this cae was built without MPI");
#endif
  }
  const GroupId id = r.rank == 0 ? publish(context, r) : await(r);
  try {
    return join(context, r, id, r.id_file + "." + to_hex(id.bytes));
  } catch (...) {
    // No run can use this id any more: leave no file that the next run would refuse.
    if (r.rank == 0) {
      std::error_code ignored;
      fs::remove(r.id_file, ignored);
    }
    throw;
  }
}

}  // namespace cae
