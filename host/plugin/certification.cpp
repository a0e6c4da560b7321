#include "plugin/certification.hpp"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "io/atomic_file.hpp"
#include "io/binary_file.hpp"
#include "io/io_error.hpp"
#include "io/sha256.hpp"
#include "io/strict_json.hpp"

namespace cae {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char* kFormat = "cae-certification";
constexpr int kFormatVersion = 1;

// Throws (the record is damaged) unless `seeds` is a list of whole numbers
// >= 0: get<uint64_t> of a negative or huge float would be undefined.
std::string seeds_text(const json& seeds) {
  if (!seeds.is_array()) throw std::runtime_error("seeds are not a list");
  std::string text;
  for (const json& seed : seeds) {
    if (!seed.is_number_unsigned()) throw std::runtime_error("a seed is not a whole number");
    text += (text.empty() ? "" : ", ") + std::to_string(seed.get<uint64_t>());
  }
  return text;
}

// A field of the record, quoted printably (it goes into a one-line summary).
std::string text_at(const json& doc, const char* key) {
  return printable_text(doc.at(key).get<std::string>());
}

// The record at `path` for a file whose digest is `sha256`; false when there
// is none. A record that exists but is unusable says why in `out`.
bool read_record(const std::string& path, const std::string& sha256, const std::string& backend,
                 const std::string& version, Certification& out) {
  std::error_code error;
  if (!fs::is_regular_file(path, error)) return false;
  try {
    // A record is a few hundred bytes: a huge file of that name is refused unread.
    const json doc = parse_strict_json(read_binary_file(path, 1 << 20, "a certification record"), path);
    // The version compared as JSON, never converted (1e300 is no int).
    if (doc.at("format").get<std::string>() != kFormat ||
        doc.at("format_version") != json(kFormatVersion)) {
      out.summary = "record " + path + " is not a certification record of this format";
      return true;
    }
    if (doc.at("sha256").get<std::string>() != sha256) {
      out.summary = "the file changed since it was certified (record " + path + ")";
      return true;
    }
    if (doc.at("backend").get<std::string>() != backend ||
        doc.at("backend_version").get<std::string>() != version) {
      out.summary = "record " + path + " certifies " + text_at(doc, "backend") + " " +
                    text_at(doc, "backend_version") + ", not " + backend + " " + version;
      return true;
    }
    const std::string verdict = doc.at("verdict").get<std::string>();
    out.certified = verdict == "passed";
    out.failed = verdict == "failed";
    out.summary = printable_text(verdict) + " seeds " + seeds_text(doc.at("seeds")) + " (" + path + ")";
    return true;
  } catch (const std::exception&) {  // unreadable, bad JSON (IoError), missing or mistyped fields
    out.summary = "record " + path + " is damaged (not the JSON cae-conformance writes)";
    return true;
  }
}

}  // namespace

std::string certification_cache_dir() {
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  if (xdg && *xdg == '/') return std::string(xdg) + "/cae/certified";
  const char* home = std::getenv("HOME");
  return std::string(home && *home ? home : "/tmp") + "/.cache/cae/certified";
}

std::string certification_beside(const std::string& plugin_path) {
  return plugin_path + ".certified.json";
}

bool is_certification_record(const std::string& file_name) {
  const std::string suffix = ".certified.json";
  return file_name.size() > suffix.size() &&
         file_name.compare(file_name.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string certification_in_cache(const std::string& sha256) {
  return certification_cache_dir() + "/" + sha256 + ".json";
}

Certification certification_of(const std::string& plugin_path, const std::string& backend,
                               const std::string& backend_version) {
  Certification result;
  std::string sha256;
  try {
    sha256 = sha256_of_file(plugin_path);
  } catch (const std::exception& e) {
    result.summary = e.what();
    return result;
  }
  // A failed verdict for these contents counts wherever it is: an older
  // passing record in the other place does not hide it (a run records where
  // it can write, and one that passes replaces the failed record there).
  Certification beside, cached;
  const bool has_beside =
      read_record(certification_beside(plugin_path), sha256, backend, backend_version, beside);
  const bool has_cached =
      read_record(certification_in_cache(sha256), sha256, backend, backend_version, cached);
  for (const Certification* found : {&beside, &cached}) {
    if (found->failed) return *found;
  }
  // Then a valid record beside the file; a stale one there does not hide a
  // valid one in the cache.
  if (has_beside && beside.certified) return beside;
  if (has_cached) return cached;
  if (has_beside) return beside;
  result.summary = "no record (certify it: cae-conformance --backend " + plugin_path + ")";
  return result;
}

std::string write_certification(const std::string& plugin_path, const CertificationRecord& record) {
  json seeds = json::array();
  for (uint64_t seed : record.seeds) seeds.push_back(seed);
  const json doc = {{"format", kFormat},
                    {"format_version", kFormatVersion},
                    {"backend", record.backend},
                    {"backend_version", record.backend_version},
                    {"file", record.file},
                    {"sha256", record.sha256},
                    {"verdict", record.verdict},
                    {"seeds", seeds},
                    {"certified_by", "cae-conformance"}};
  const std::string text = doc.dump(2) + "\n";
  const std::string folder = fs::path(plugin_path).parent_path().string();
  std::string path = certification_beside(plugin_path);
  if (access(folder.c_str(), W_OK) != 0) {
    path = certification_in_cache(record.sha256);
    std::error_code error;
    fs::create_directories(fs::path(path).parent_path(), error);
    if (error) {
      throw std::runtime_error("cannot create " + fs::path(path).parent_path().string() + ": " +
                               error.message());
    }
  }
  write_file_atomically(path, text);
  if (path == certification_beside(plugin_path)) {
    // The record beside the file is now the newest verdict on these
    // contents: one in the cache from an earlier run would contradict it.
    std::error_code ignored;
    fs::remove(certification_in_cache(record.sha256), ignored);
  }
  return path;
}

}  // namespace cae
