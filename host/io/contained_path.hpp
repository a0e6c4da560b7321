#pragma once
// Paths that come from a file (report.json's figure names, an output set's
// member list) name files *inside* the folder that file describes. One read
// from a damaged or hostile file must not reach outside it: an absolute path
// or a ".." would let `cae report RUN` overwrite any file the user can write.

#include <filesystem>
#include <string>

namespace cae {

// True when `name` is relative, not empty and has no "." or ".." component
// (so folder / name lies inside folder, symbolic links aside).
bool stays_inside_folder(const std::string& name);

// folder / name, or IoError "<source>: <field> is 'NAME': ..." when `name`
// could leave the folder.
std::filesystem::path path_inside(const std::filesystem::path& folder, const std::string& name,
                                  const std::string& source, const std::string& field);

// The one-line refusal used above, for readers with their own error type.
std::string outside_folder_message(const std::string& field, const std::string& name);

}  // namespace cae
