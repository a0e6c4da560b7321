// Certification records: what `cae-conformance` certified, where cae reads it.
//
// A full run of cae-conformance (its whole check set) writes a record of its
// verdict for the exact plugin file it checked, identified by the file's
// SHA-256:
//   {"format": "cae-certification", "format_version": 1, "backend": "cpu",
//    "backend_version": "1.0.0", "file": "/abs/libcae-backend-cpu.so",
//    "sha256": "...", "verdict": "passed"|"failed", "seeds": [1, 2, 3],
//    "certified_by": "cae-conformance"}
// It goes beside the plugin (FILE.certified.json) when that folder is
// writable (a build tree, one's own plugins), else into the user's cache,
// $XDG_CACHE_HOME/cae/certified/SHA256.json (default ~/.cache/...), which
// serves installed plugins in read-only folders. cae reads both; a record
// counts only while the file's SHA-256, the backend's name and version match,
// and a failed verdict on the same contents in either place outweighs a
// passing one. cae-conformance writes only the verdict of a full run of the
// file as it loaded it (tests/conformance/certify.hpp), so a failed record is
// replaced only by a full passing run of the same contents.
// The default backend is chosen among certified ones (registry.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cae {

struct CertificationRecord {
  std::string backend;
  std::string backend_version;
  std::string file;    // absolute path at certification (information only)
  std::string sha256;  // of the plugin file: what the record is about
  std::string verdict;  // "passed" or "failed"
  std::vector<uint64_t> seeds;
};

struct Certification {
  bool certified = false;
  // A record says this exact file failed: certifying it again by itself
  // would only repeat the failure (first_use_certification.hpp).
  bool failed = false;
  // "passed seeds 1, 2, 3 (RECORD)" or why not: "no record", "failed ...",
  // "the file changed since it was certified", "record R is damaged: ...".
  std::string summary;
};

std::string certification_beside(const std::string& plugin_path);
// True for the file name of a record beside a plugin (not a plugin itself).
bool is_certification_record(const std::string& file_name);
std::string certification_in_cache(const std::string& sha256);
// Where records go when a plugin's folder is read-only:
// $XDG_CACHE_HOME/cae/certified (default ~/.cache/cae/certified).
std::string certification_cache_dir();

// Never throws: a record that cannot be read or does not match is a reason.
Certification certification_of(const std::string& plugin_path, const std::string& backend,
                               const std::string& backend_version);

// Writes `record` atomically beside the plugin, or into the cache when the
// plugin's folder is not writable (a record written beside it removes the
// cache's record of the same contents, now superseded). Returns where;
// throws std::runtime_error naming the path when neither can be written.
std::string write_certification(const std::string& plugin_path, const CertificationRecord& record);

}  // namespace cae
