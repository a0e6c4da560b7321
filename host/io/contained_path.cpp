#include "io/contained_path.hpp"

#include "io/io_error.hpp"

namespace cae {

bool stays_inside_folder(const std::string& name) {
  if (name.empty() || name.find('\0') != std::string::npos) return false;
  const std::filesystem::path path(name);
  if (path.is_absolute() || path.has_root_name() || path.has_root_directory()) return false;
  for (const std::filesystem::path& part : path) {
    if (part == ".." || part == ".") return false;
  }
  return true;
}

std::string outside_folder_message(const std::string& field, const std::string& name) {
  return field + " is '" + name +
         "', which is not a name inside its folder (an absolute path or '..' is refused)";
}

std::filesystem::path path_inside(const std::filesystem::path& folder, const std::string& name,
                                  const std::string& source, const std::string& field) {
  if (!stays_inside_folder(name)) throw IoError(source + ": " + outside_folder_message(field, name));
  return folder / name;
}

}  // namespace cae
