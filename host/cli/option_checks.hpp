// The validation layers of the command line, applied before any work starts:
// numbers (finite, in range, never wrapped) and output paths (usable, not
// taken by another run). A bad value is a UsageError naming the option (exit
// code 2), never a silent clamp.
#pragma once

#include <cstdio>
#include <string>
#include <type_traits>
#include <vector>

#include "command.hpp"
#include "io/confined_folder.hpp"
#include "io/output_lock.hpp"

namespace cae::cli {

// A number as a user would write it: 1e-09, 10, 0.999 (not 0.000000).
template <class T>
std::string number_text(T value) {
  if constexpr (std::is_integral_v<T>) {
    return std::to_string(value);
  } else {
    char text[32];
    std::snprintf(text, sizeof text, "%g", static_cast<double>(value));
    return text;
  }
}

// The option's value, which must lie in [low, high]. Written so that NaN,
// which compares false with everything, fails the check too.
template <class T>
T option_in_range(const po::variables_map& vm, const char* name, T low, T high) {
  T value = vm[name].as<T>();
  if (!(value >= low && value <= high)) {
    throw UsageError("--" + std::string(name) + " must be between " + number_text(low) + " and " +
                     number_text(high) + ", got " + number_text(value));
  }
  return value;
}

// Run on every command line after parsing: no value may be empty, a
// floating-point option must be a finite number (Boost accepts "nan" and
// "inf"), and an unsigned one must not be negative (Boost turns "-1" into
// 18446744073709551615).
void check_option_values(const po::parsed_options& parsed, const po::variables_map& vm);

// Makes sure a file can later be written at `path` (creating its folder), so a
// long run fails at once, not after hours, when the destination is unusable:
// not empty, not a folder or device, in a folder that exists or can be made
// and is writable. `option` names the option in messages ("--out", "--json"):
// always the one the user gave the path with, so it has no default. (Its
// length was checked when the options were parsed: output_file_value,
// path_options.hpp.)
void prepare_output_file(const std::string& path, const std::string& option);
// The same for an output folder: created if missing, must be a writable folder.
void prepare_output_directory(const std::string& path, const std::string& option);

// prepare_output_file plus the output's lock, held for as long as the
// command runs: a second run writing the same output, or a run writing its
// whole folder, stops at once (io/output_lock.hpp).
OutputLock claim_output_file(const std::string& path, const std::string& option);

// An output folder, claimed for as long as the command runs: its lock, and
// every file written under it held inside it (io/confined_folder.hpp).
struct FolderClaim {
  OutputLock lock;
  ConfinedFolder confined;
};
// `created`: the files the command will write in the folder (names relative
// to it). Their lengths and the links on their way are checked before the
// folder is made or locked (check_created_paths), so nothing is written when
// one of them could not be; the output set's manifest is added here.
FolderClaim claim_output_directory(const std::string& path, std::vector<std::string> created,
                                   const std::string& option);

// Refuses an output that is one of the command's input files (the same file by
// any name): writing it would destroy the input. UsageError naming both.
void require_not_an_input(const std::string& output, const std::vector<std::string>& inputs,
                          const std::string& option = "--out");

// A count option (--samples N) asked for more items than the data holds: a
// UsageError rather than silently using fewer. 0 means "all" and always fits.
void require_available(int64_t requested, size_t available, const std::string& option,
                       const std::string& where, const std::string& what);

}  // namespace cae::cli
