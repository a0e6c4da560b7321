#pragma once
// The files one run writes into one folder form a set: features and their
// labels, a model with its SVM and report, the batch files of a data set.
// Each file is already atomic (io/atomic_file.hpp); an OutputSet makes the
// set atomic too, so that no reader ever combines files of two runs.
//
// While an OutputSet for a folder is open, every AtomicFile committed
// directly in that folder is written in full but kept under its temporary
// name. publish() then, with fatal signals held back, renames them all into
// place and records the set in FOLDER/cae-set.json: the run's id, the
// command, and each file's size and content hash. A run stopped before
// publish() (an error, SIGINT, SIGTERM, SIGHUP) leaves the previous set as it
// was; one stopped during it by SIGKILL or a power cut leaves the manifest in
// its "writing" state, which readers refuse.
//
// Readers check the manifest of the folder a file comes from
// (check_set_member): a file the manifest lists must have the size and hash
// recorded there. io/binary_file.hpp (checkpoints, .npy, SVM models, report
// files) and the CIFAR-10 reader do this for every file they read, so a
// folder holding files of two runs is refused with one line naming the file
// and the run it does not belong to. A folder without a manifest (the real
// CIFAR-10, features written by another program) is read as before.

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace cae {

class Sha256;

constexpr const char* kSetManifestName = "cae-set.json";

class OutputSet {
 public:
  // Opens the set of `folder` (which must exist) for `command` ("cae extract").
  OutputSet(const std::string& folder, std::string command);
  // Without publish(): removes the files written so far; the folder keeps
  // what it held.
  ~OutputSet();
  OutputSet(const OutputSet&) = delete;
  OutputSet& operator=(const OutputSet&) = delete;

  // `path` (a file of the folder) is removed when the set is published, not
  // before: a file of the previous set the new one does not replace.
  void remove_on_publish(const std::string& path);

  // Renames every staged file into place and writes the manifest. Throws
  // IoError. Call at most once.
  void publish();

  // Used by AtomicFile::commit: takes over `temp_path` (registered for exit
  // cleanup in `cleanup_slot`) as the new contents of `final_path` when
  // that file lies directly in an open set's folder. False otherwise.
  static bool stage(const std::string& final_path, const std::string& temp_path, int cleanup_slot,
                    const std::string& hash, uint64_t bytes);

  // The path to read `final_path` from within this process: its staged
  // temporary while its set is open, else `final_path` itself.
  static std::string readable_path(const std::string& final_path);

  const std::string& key() const { return key_; }

 private:
  struct Staged {
    std::string temp_path;
    int cleanup_slot;
    std::string hash;
    uint64_t bytes;
  };
  void discard() noexcept;

  std::string folder_;   // as given, for messages and paths
  std::string key_;      // canonical, to match files to the set
  std::string command_;
  std::string run_id_;
  std::mutex mutex_;
  std::map<std::string, Staged> staged_;  // by file name
  std::vector<std::string> removals_;
  bool published_ = false;
};

// Throws IoError when `path` is listed in its folder's manifest and `bytes`
// (its contents) are not the recorded ones, or when the manifest says the set
// was left half-written. A file the manifest does not list, or a folder
// without one, passes.
void check_set_member(const std::string& path, const std::string& bytes);
// The same, reading the file itself (for readers that read only part of it).
void check_set_member(const std::string& path);
// The same for a reader that hashes the file as it reads it, instead of the
// file being read twice: `read(hash)` reads the whole file, passing every
// byte to `hash` in file order, or gets nullptr when the folder's manifest
// does not list the file (nothing to hash); the digest is then checked.
void check_set_member_while_reading(const std::string& path,
                                    const std::function<void(Sha256*)>& read);

// A single file written on its own into a set's folder (`cae train --out
// RUN/model.safetensors`) no longer belongs to that set: its entry is
// dropped from the manifest before the file is replaced.
void leave_set(const std::string& final_path);

}  // namespace cae
