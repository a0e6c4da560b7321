// Quoting of one CSV field (RFC 4180).
#pragma once

#include <string>
#include <string_view>

namespace cae {

// `text` as it must appear in a CSV line: unchanged when safe, otherwise in
// double quotes with inner quotes doubled (commas, quotes, line breaks, or
// spaces at either end, which some readers would trim).
std::string csv_field(std::string_view text);

}  // namespace cae
