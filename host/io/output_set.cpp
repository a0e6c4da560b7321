#include "io/output_set.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <random>
#include <thread>

#include "io/atomic_file.hpp"
#include "io/sha256.hpp"
#include "io/directory.hpp"
#include "io/exit_cleanup.hpp"
#include "io/io_error.hpp"
#include "io/output_lock.hpp"
#include "io/regular_file.hpp"
#include "io/strict_json.hpp"

namespace cae {

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

constexpr int kManifestVersion = 2;  // 2: files named by their SHA-256
constexpr size_t kMaxManifestBytes = 1 << 20;
// How long a reader waits for another cae to finish putting a set in place
// (the renames take milliseconds; this allows for a loaded machine).
constexpr auto kPublishWait = std::chrono::seconds(5);

std::mutex g_open_sets_mutex;
std::vector<OutputSet*> g_open_sets;

// The folder as one string whatever way it was named ("run", "./run/").
std::string folder_key(const std::string& folder) {
  std::error_code error;
  const fs::path canonical = fs::weakly_canonical(fs::absolute(folder, error), error);
  return (error ? fs::absolute(folder).lexically_normal() : canonical).string();
}

std::string file_name_of(const std::string& path) { return fs::path(path).filename().string(); }

std::string manifest_path_of(const std::string& folder) {
  return (fs::path(folder) / kSetManifestName).string();
}

std::string new_run_id() {
  std::random_device entropy;
  const auto now = std::chrono::system_clock::now().time_since_epoch().count();
  const uint64_t id = (uint64_t(entropy()) << 32 ^ uint64_t(entropy())) ^ uint64_t(now) ^
                      (uint64_t(::getpid()) << 17);
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(id));
  return text;
}

void write_manifest(const std::string& folder, const json& manifest) {
  AtomicFile file(manifest_path_of(folder), AtomicFile::Staging::kImmediate);
  file.write(manifest.dump(2) + "\n");
  file.commit();
}

// The folder's manifest, or a null json when it has none. Throws IoError
// when it is there but not readable as one.
json read_manifest(const std::string& folder) {
  const std::string path = manifest_path_of(folder);
  std::error_code error;
  if (!fs::exists(fs::symlink_status(path, error))) return json();
  const UniqueFile file = open_regular_file(path);
  std::string text(kMaxManifestBytes + 1, '\0');
  text.resize(std::fread(text.data(), 1, text.size(), file.get()));
  const std::string damaged = path + " is not a cae output-set manifest";
  const std::string remedy = "; write the folder again, or remove it to read the files as they are";
  if (text.size() > kMaxManifestBytes) throw IoError(damaged + " (over 1 MiB)" + remedy);
  json manifest;
  try {
    manifest = parse_strict_json(text, path);  // a key named twice is refused too
  } catch (const IoError&) {
    throw IoError(damaged + remedy);
  }
  const auto is_string_at = [&manifest](const char* key) {
    const auto it = manifest.find(key);
    return it != manifest.end() && it->is_string();
  };
  if (!manifest.is_object() || !is_string_at("format") || manifest["format"] != "cae-set" ||
      !manifest.contains("files") || !manifest["files"].is_object() || !is_string_at("state")) {
    throw IoError(damaged + remedy);
  }
  // Compared as JSON: a version of another type or out of int's range is
  // another version, never converted.
  if (!manifest.contains("version") || manifest["version"] != json(kManifestVersion)) {
    throw IoError(path + " has manifest version " +
                  (manifest.contains("version") ? json_excerpt(manifest["version"]) : std::string("(none)")) +
                  ", this cae reads " + std::to_string(kManifestVersion) + remedy);
  }
  return manifest;
}

std::string run_of(const json& manifest) {
  const auto text = [&manifest](const char* key) {
    const auto it = manifest.find(key);
    return it != manifest.end() && it->is_string() ? text_excerpt(it->get<std::string>())
                                                   : std::string("?");
  };
  return "`" + text("command") + "` (set " + text("run") + ")";
}

// "FOLDER is being written by another cae process (pid N)", or empty when
// no other cae is writing the folder now.
std::string being_written(const std::string& folder) {
  const long writer = folder_writer(folder);
  if (writer == 0) return "";
  return folder + " is being written by another cae process (pid " + std::to_string(writer) +
         "); wait for it to finish and run again";
}

// The folder's manifest (null without one). One that another, live cae left
// in its "writing" state is waited for, up to kPublishWait: that cae is
// putting its set in place now. `waited` says whether it was.
json settled_manifest(const std::string& folder, bool& waited) {
  json manifest = read_manifest(folder);
  waited = false;
  const auto deadline = std::chrono::steady_clock::now() + kPublishWait;
  while (!manifest.is_null() && manifest["state"] != "complete" && folder_writer(folder) != 0 &&
         std::chrono::steady_clock::now() < deadline) {
    waited = true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    manifest = read_manifest(folder);
  }
  return manifest;
}

// The manifest's entry for `name`, or null when it lists none. Throws when
// the set was left half-written, or is still being put in place.
json entry_for(const json& manifest, const std::string& folder, const std::string& name) {
  const json& files = manifest["files"];
  const auto it = files.find(name);
  if (it == files.end()) return json();
  if (manifest["state"] != "complete") {
    const std::string writing = being_written(folder);
    if (!writing.empty()) throw IoError((fs::path(folder) / name).string() + ": " + writing);
    throw IoError((fs::path(folder) / name).string() + ": " + folder +
                  " holds a half-written set of files: " + run_of(manifest) +
                  " was stopped while putting them in place (" + manifest_path_of(folder) +
                  "); run it again");
  }
  // find(), not [] (undefined on a const object without the key).
  const auto bytes = it->is_object() ? it->find("bytes") : it->end();
  const auto sha256 = it->is_object() ? it->find("sha256") : it->end();
  if (!it->is_object() || bytes == it->end() || !bytes->is_number_unsigned() ||
      sha256 == it->end() || !sha256->is_string()) {
    throw IoError(manifest_path_of(folder) + " is not a cae output-set manifest (entry '" + name +
                  "'); write the folder again, or remove it to read the files as they are");
  }
  return *it;
}

// `waited`: the set was put in place while the file was being read.
void require_recorded(const std::string& path, const std::string& folder, const json& manifest,
                      const json& entry, uint64_t bytes, const std::string& hash, bool waited) {
  if (entry["bytes"].get<uint64_t>() == bytes && entry["sha256"].get<std::string>() == hash) return;
  // Not two runs mixed but one replacing the folder as it was read.
  const std::string writing = being_written(folder);
  if (!writing.empty()) throw IoError(path + ": " + writing);
  if (waited) {
    throw IoError(path + " changed while it was read: another cae process put a new set of files in " +
                  folder + " meanwhile; run again");
  }
  throw IoError(path + " is not the file " + run_of(manifest) + " wrote with the others in " +
                folder + " (" + manifest_path_of(folder) +
                "): the folder mixes files of two runs, or the file was changed since; write it "
                "again, or move the file out to use it on its own");
}

OutputSet* open_set_for(const std::string& final_path) {
  const std::string key = folder_key(parent_directory(final_path));
  for (auto it = g_open_sets.rbegin(); it != g_open_sets.rend(); ++it) {
    if ((*it)->key() == key) return *it;
  }
  return nullptr;
}

}  // namespace

OutputSet::OutputSet(const std::string& folder, std::string command)
    : folder_(folder), key_(folder_key(folder)), command_(std::move(command)), run_id_(new_run_id()) {
  const std::lock_guard<std::mutex> hold(g_open_sets_mutex);
  g_open_sets.push_back(this);
}

OutputSet::~OutputSet() {
  {
    const std::lock_guard<std::mutex> hold(g_open_sets_mutex);
    g_open_sets.erase(std::remove(g_open_sets.begin(), g_open_sets.end(), this), g_open_sets.end());
  }
  if (!published_) discard();
}

void OutputSet::discard() noexcept {
  const std::lock_guard<std::mutex> hold(mutex_);
  for (auto& [name, staged] : staged_) {
    ::unlink(staged.temp_path.c_str());
    unregister_exit_cleanup(staged.cleanup_slot);
  }
  staged_.clear();
}

void OutputSet::remove_on_publish(const std::string& path) {
  const std::lock_guard<std::mutex> hold(mutex_);
  removals_.push_back(path);
}

void OutputSet::publish() {
  // A signal now would leave some files renamed and some not.
  const FatalSignalsDeferred deferred;
  const std::lock_guard<std::mutex> hold(mutex_);
  json manifest = {{"format", "cae-set"},  {"version", kManifestVersion}, {"run", run_id_},
                   {"command", command_},  {"state", "writing"},          {"files", json::object()}};
  for (const auto& [name, staged] : staged_) {
    manifest["files"][name] = {{"bytes", staged.bytes}, {"sha256", staged.hash}};
  }
  write_manifest(folder_, manifest);
  for (const std::string& path : removals_) {
    if (::unlink(path.c_str()) != 0 && errno != ENOENT) {
      throw IoError(describe_errno("cannot remove " + path + " (" + folder_ + " is left half-written)", errno));
    }
  }
  for (auto& [name, staged] : staged_) {
    const std::string final_path = (fs::path(folder_) / name).string();
    if (std::rename(staged.temp_path.c_str(), final_path.c_str()) != 0) {
      throw IoError(describe_errno("cannot rename " + staged.temp_path + " onto " + final_path +
                                       " (" + folder_ + " is left half-written)",
                                   errno));
    }
    unregister_exit_cleanup(std::exchange(staged.cleanup_slot, -1));
  }
  staged_.clear();
  manifest["state"] = "complete";
  write_manifest(folder_, manifest);
  published_ = true;
}

bool OutputSet::stage(const std::string& final_path, const std::string& temp_path,
                      int cleanup_slot, const std::string& hash, uint64_t bytes) {
  const std::lock_guard<std::mutex> hold(g_open_sets_mutex);
  OutputSet* set = open_set_for(final_path);
  if (set == nullptr) return false;
  const std::lock_guard<std::mutex> hold_set(set->mutex_);
  const std::string name = file_name_of(final_path);
  const auto previous = set->staged_.find(name);
  if (previous != set->staged_.end()) {
    // Written again (a checkpoint after every epoch): the same temporary
    // name, already holding the new contents.
    if (previous->second.temp_path != temp_path) ::unlink(previous->second.temp_path.c_str());
    unregister_exit_cleanup(previous->second.cleanup_slot);
  }
  set->staged_[name] = Staged{temp_path, cleanup_slot, hash, bytes};
  return true;
}

std::string OutputSet::readable_path(const std::string& final_path) {
  const std::lock_guard<std::mutex> hold(g_open_sets_mutex);
  OutputSet* set = open_set_for(final_path);
  if (set == nullptr) return final_path;
  const std::lock_guard<std::mutex> hold_set(set->mutex_);
  const auto it = set->staged_.find(file_name_of(final_path));
  return it == set->staged_.end() ? final_path : it->second.temp_path;
}

namespace {

// The manifest of `path`'s folder and its entry for `path`, or false when
// neither the folder nor the file is part of a recorded set.
bool listed_in_set(const std::string& path, json& manifest, json& entry, bool& waited) {
  const std::string name = file_name_of(path);
  if (name == kSetManifestName) return false;
  const std::string folder = parent_directory(path);
  manifest = settled_manifest(folder, waited);
  if (manifest.is_null()) return false;
  entry = entry_for(manifest, folder, name);
  return !entry.is_null();
}

}  // namespace

void check_set_member_while_reading(const std::string& path,
                                    const std::function<void(Sha256*)>& read) {
  json manifest, entry;
  bool waited = false;
  if (!listed_in_set(path, manifest, entry, waited)) {
    read(nullptr);
    return;
  }
  Sha256 hash;
  read(&hash);
  require_recorded(path, parent_directory(path), manifest, entry, hash.bytes(), hash.hex(), waited);
}

void check_set_member(const std::string& path, const std::string& bytes) {
  check_set_member_while_reading(path, [&](Sha256* hash) {
    if (hash) hash->update(bytes.data(), bytes.size());
  });
}

void check_set_member(const std::string& path) {
  check_set_member_while_reading(path, [&](Sha256* hash) {
    if (!hash) return;  // not listed: nothing to read
    const UniqueFile file = open_regular_file(path);
    std::vector<char> chunk(1 << 20);
    for (;;) {
      const size_t got = std::fread(chunk.data(), 1, chunk.size(), file.get());
      hash->update(chunk.data(), got);
      if (got < chunk.size()) break;
    }
    if (std::ferror(file.get())) throw IoError(describe_errno("cannot read " + path, errno));
  });
}

void leave_set(const std::string& final_path) {
  const std::string folder = parent_directory(final_path);
  const std::string manifest_path = manifest_path_of(folder);
  std::error_code error;
  if (!fs::exists(fs::symlink_status(manifest_path, error))) return;
  json manifest;
  try {
    manifest = read_manifest(folder);
  } catch (const IoError&) {
    return;  // not a manifest cae can read: nothing of it to keep consistent
  }
  if (manifest.is_null() || manifest["files"].erase(file_name_of(final_path)) == 0) return;
  write_manifest(folder, manifest);
}

}  // namespace cae
