#pragma once
// An output folder is where a command writes, and only there. A name inside
// the folder can still lead out of it through a symbolic link (RUN/figs ->
// ~/figures, RUN/synthetic-data -> ~/data/cifar): followed, cae would replace
// files outside the run it was asked to write. So a file cae writes under
// its output folder must lie inside that folder once links are resolved.
//
// A command checks the names it will write when it claims its folder
// (link_leaving, before any work), and for as long as a ConfinedFolder
// lives every AtomicFile under that folder is checked again before anything
// is created (require_inside_confined_folders): a name the command did not
// list, or read from a file (report.json's figures), is held to the same
// rule.

#include <optional>
#include <string>

#include "io/io_error.hpp"

namespace cae {

// A path refused because it leaves its output folder. The CLI exits 2 on it,
// as on any output the user has to change before cae can run.
class OutputPathError : public IoError {
 public:
  using IoError::IoError;
};

// A symbolic link (as the user would name it: FOLDER/figs) and the target it
// names (as written in the link).
struct LeavingLink {
  std::string link;
  std::string target;
};

// The first symbolic link on the way from `folder` down to `path` (a path
// inside `folder`, lexically) whose target, resolved, lies outside `folder`;
// none when the path stays inside. A link at the last name counts too: cae
// would replace the link, and the user made it to point elsewhere.
std::optional<LeavingLink> link_leaving(const std::string& folder, const std::string& path);

// "PATH leads outside FOLDER: LINK is a symbolic link to TARGET; ..."
std::string leaving_folder_message(const std::string& path, const std::string& folder,
                                   const LeavingLink& link);

// While alive, files written under `folder` must stay inside it.
class ConfinedFolder {
 public:
  explicit ConfinedFolder(const std::string& folder);
  ~ConfinedFolder();
  ConfinedFolder(ConfinedFolder&& other) noexcept;
  ConfinedFolder& operator=(ConfinedFolder&&) = delete;
  ConfinedFolder(const ConfinedFolder&) = delete;
  ConfinedFolder& operator=(const ConfinedFolder&) = delete;

 private:
  int id_ = -1;
};

// Throws OutputPathError when `path` lies under a confined folder and a
// symbolic link takes it outside.
void require_inside_confined_folders(const std::string& path);

}  // namespace cae
