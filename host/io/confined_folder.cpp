#include "io/confined_folder.hpp"

#include <algorithm>
#include <filesystem>
#include <mutex>
#include <utility>
#include <vector>

namespace cae {

namespace fs = std::filesystem;

namespace {

struct Confined {
  int id;
  std::string folder;  // as given, for messages
  fs::path lexical;    // absolute, normalised: what "under the folder" means
};

std::mutex g_confined_mutex;
std::vector<Confined> g_confined;
int g_next_id = 0;

fs::path lexical_path(const std::string& path) {
  std::error_code error;
  const fs::path absolute = fs::absolute(path, error);
  return (error ? fs::path(path) : absolute).lexically_normal();
}

// `path` relative to `folder` when it lies inside it (both normalised); empty otherwise.
fs::path relative_inside(const fs::path& path, const fs::path& folder) {
  const fs::path relative = path.lexically_relative(folder);
  if (relative.empty() || *relative.begin() == "..") return {};
  return relative;
}

bool lies_inside(const fs::path& resolved, const fs::path& folder) {
  return resolved == folder || !relative_inside(resolved, folder).empty();
}

}  // namespace

std::optional<LeavingLink> link_leaving(const std::string& folder, const std::string& path) {
  std::error_code error;
  const fs::path start = lexical_path(folder);
  const fs::path resolved_folder = fs::weakly_canonical(start, error);
  if (error) return std::nullopt;  // the folder itself is unusable: its own check says so
  fs::path walked = start;
  fs::path shown = folder;
  for (const fs::path& part : relative_inside(lexical_path(path), start)) {
    if (part == ".") continue;
    walked /= part;
    shown /= part;
    const fs::file_status status = fs::symlink_status(walked, error);
    if (error || !fs::exists(status)) return std::nullopt;  // nothing below can be a link
    if (!fs::is_symlink(status)) continue;
    const fs::path target = fs::read_symlink(walked, error);
    if (error) return LeavingLink{shown.string(), "(unreadable)"};
    const fs::path resolved =
        fs::weakly_canonical(target.is_absolute() ? target : walked.parent_path() / target, error);
    // A loop of links, or one that cannot be followed, is refused too: it
    // cannot be shown to stay inside.
    if (error || !lies_inside(resolved, resolved_folder)) {
      return LeavingLink{shown.string(), target.string()};
    }
  }
  return std::nullopt;
}

std::string leaving_folder_message(const std::string& path, const std::string& folder,
                                   const LeavingLink& link) {
  return printable_text(path) + " leads outside " + printable_text(folder) + ": " +
         printable_text(link.link) + " is a symbolic link to " + printable_text(link.target) +
         "; cae writes only inside its output folder (remove the link or choose another output)";
}

ConfinedFolder::ConfinedFolder(const std::string& folder) {
  const std::lock_guard<std::mutex> hold(g_confined_mutex);
  id_ = g_next_id++;
  g_confined.push_back({id_, folder, lexical_path(folder)});
}

ConfinedFolder::ConfinedFolder(ConfinedFolder&& other) noexcept
    : id_(std::exchange(other.id_, -1)) {}

ConfinedFolder::~ConfinedFolder() {
  if (id_ < 0) return;
  const std::lock_guard<std::mutex> hold(g_confined_mutex);
  g_confined.erase(std::remove_if(g_confined.begin(), g_confined.end(),
                                  [this](const Confined& c) { return c.id == id_; }),
                   g_confined.end());
}

void require_inside_confined_folders(const std::string& path) {
  std::vector<std::string> folders;
  {
    const std::lock_guard<std::mutex> hold(g_confined_mutex);
    const fs::path lexical = lexical_path(path);
    for (const Confined& confined : g_confined) {
      if (!relative_inside(lexical, confined.lexical).empty()) folders.push_back(confined.folder);
    }
  }
  for (const std::string& folder : folders) {
    if (const auto link = link_leaving(folder, path)) {
      throw OutputPathError(leaving_folder_message(path, folder, *link));
    }
  }
}

}  // namespace cae
