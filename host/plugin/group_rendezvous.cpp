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

GroupId publish(Context& context, const Rendezvous& r) {
  if (fs::exists(r.id_file)) {
    throw std::runtime_error("rank 0: the group id file " + r.id_file +
                             " already exists (left by an earlier run?); remove it and start "
                             "every rank again");
  }
  GroupId id;
  id.backend = context.backend_name();
  if (has_process_group_members(context.table())) {
    id.exchange = kBackendExchange;
    id.bytes = make_backend_group_id(context.table());
  } else {
    id.exchange = kFileExchange;
    id.bytes = random_token();
  }
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

std::unique_ptr<ProcessGroup> join(Context& context, const Rendezvous& r, const GroupId& id) {
  std::unique_ptr<ProcessGroup> group;
  if (id.exchange == kBackendExchange) {
    if (!has_process_group_members(context.table())) {
      throw std::runtime_error("rank " + std::to_string(r.rank) + ": backend " +
                               context.backend_name() +
                               " here has no process-group members (ABI 1.2) but rank 0's has");
    }
    group = std::make_unique<BackendProcessGroup>(context, r.rank, r.world, id.bytes);
  } else {
    group = std::make_unique<FileProcessGroup>(r.id_file + "." + to_hex(id.bytes), r.rank,
                                               r.world, r.timeout);
  }
  // Every rank has joined, so every rank has read the id: a later run may reuse the name.
  if (r.rank == 0) {
    std::error_code ignored;
    fs::remove(r.id_file, ignored);
  }
  return group;
}

}  // namespace

std::unique_ptr<ProcessGroup> join_process_group(Context& context, const Rendezvous& r) {
  const GroupId id = r.rank == 0 ? publish(context, r) : await(r);
  if (id.backend != context.backend_name()) {
    throw std::runtime_error("rank " + std::to_string(r.rank) + " runs backend " +
                             context.backend_name() + " but rank 0 made " + r.id_file +
                             " for backend " + id.backend + "; give every rank the same --backend");
  }
  try {
    return join(context, r, id);
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
